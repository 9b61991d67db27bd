import { authorizeViaAuth } from '../../../shared/auth/authorize-via-auth';
import { knowledgeService } from '../../../shared/contracts/knowledge';
import { createModuleApp } from '../../../shared/module/module-app';
import { mountService, rpcEntrypoint } from '../../../shared/service';
import { knowledgeConfig } from './config';
import { knowledgeImpl } from './impl';
import { KNOWLEDGE_MODULE } from './module';
import { uploadLimit } from './upload-limit';

const authorize = authorizeViaAuth<KnowledgeEnv>((env) => knowledgeConfig(env).verification);

const app = createModuleApp<{ Bindings: KnowledgeEnv }>(KNOWLEDGE_MODULE);
mountService(app, knowledgeService, knowledgeImpl, { authorize, middlewares: { uploadLimit } });

/** What chat calls over its KNOWLEDGE service binding: the methods marked @grpc. */
export const KnowledgeRpc = rpcEntrypoint(knowledgeService, knowledgeImpl, { authorize });

export default app;
