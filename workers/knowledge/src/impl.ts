import type { Principal } from '../../../shared/auth/roles';
import type { knowledgeService } from '../../../shared/contracts/knowledge';
import { checkDatabase } from '../../../shared/db/health';
import { moduleName } from '../../../shared/module/module-app';
import type { ServiceImpl } from '../../../shared/service';
import { knowledgeConfig } from './config';
import { download, list, remove } from './handlers/files';
import { query } from './handlers/query';
import { upload } from './handlers/upload';
import { KNOWLEDGE_MODULE } from './module';

/** The knowledge service, the same over HTTP and RPC. */
export const knowledgeImpl: ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal> = {
  GetHealth: async (_, ctx) => ({
    module: moduleName(ctx.env, KNOWLEDGE_MODULE),
    database: await checkDatabase(knowledgeConfig(ctx.env).database),
  }),
  Upload: upload,
  GetList: list,
  GetQuery: query,
  DeleteFile: remove,
  GetDownload: download,
};
