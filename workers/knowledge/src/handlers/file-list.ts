import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import type { ServiceImpl } from '#shared/service';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

// PLACEHOLDER: being built (issue 34); replaced before it lands.
export const GetFiles: Impl['GetFiles'] = () =>
  Promise.reject(new Error('GetFiles: not built yet'));
