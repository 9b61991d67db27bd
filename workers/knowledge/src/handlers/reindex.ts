import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import type { ServiceImpl } from '#shared/service';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

// PLACEHOLDER: being built (issue 34); replaced before it lands.
export const GetEmbeddingStatus: Impl['GetEmbeddingStatus'] = () =>
  Promise.reject(new Error('GetEmbeddingStatus: not built yet'));
export const PostReindex: Impl['PostReindex'] = () =>
  Promise.reject(new Error('PostReindex: not built yet'));
export const GetReindex: Impl['GetReindex'] = () =>
  Promise.reject(new Error('GetReindex: not built yet'));
