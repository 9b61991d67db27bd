import { checkDatabase } from '../../../shared/db/health';
import { createModuleApp, moduleName } from '../../../shared/module/module-app';
import { knowledgeConfig } from './config';
import { KNOWLEDGE_MODULE } from './module';

export { KnowledgeRpc } from './rpc';

const app = createModuleApp<{ Bindings: KnowledgeEnv }>(KNOWLEDGE_MODULE);

app.get('/health', async (c) => {
  const config = knowledgeConfig(c.env);
  return c.json({
    module: moduleName(c.env, KNOWLEDGE_MODULE),
    database: await checkDatabase(config.database, (p) => c.executionCtx.waitUntil(p)),
  });
});

export default app;
