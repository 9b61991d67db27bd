import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import type { ServiceImpl } from '#shared/service';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

// PLACEHOLDER: being built (issue 34); replaced before it lands.
export const GetChunks: Impl['GetChunks'] = () =>
  Promise.reject(new Error('GetChunks: not built yet'));
export const PutChunk: Impl['PutChunk'] = () =>
  Promise.reject(new Error('PutChunk: not built yet'));
export const PutFileEnabled: Impl['PutFileEnabled'] = () =>
  Promise.reject(new Error('PutFileEnabled: not built yet'));
