import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import type { ServiceImpl } from '#shared/service';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

// PLACEHOLDER: being built (issue 34); replaced before it lands.
export const GetRetrievalTests: Impl['GetRetrievalTests'] = () =>
  Promise.reject(new Error('GetRetrievalTests: not built yet'));
export const PostRetrievalTest: Impl['PostRetrievalTest'] = () =>
  Promise.reject(new Error('PostRetrievalTest: not built yet'));
export const DeleteRetrievalTest: Impl['DeleteRetrievalTest'] = () =>
  Promise.reject(new Error('DeleteRetrievalTest: not built yet'));
export const PostRetrievalTestRun: Impl['PostRetrievalTestRun'] = () =>
  Promise.reject(new Error('PostRetrievalTestRun: not built yet'));
