import { checkDatabase } from '../../../shared/db/health';
import { createModuleApp, moduleName } from '../../../shared/module/module-app';
import { authConfig } from './config';
import { AUTH_MODULE } from './module';

const app = createModuleApp<{ Bindings: AuthEnv }>(AUTH_MODULE);

app.get('/health', async (c) => {
  const config = authConfig(c.env);
  return c.json({
    module: moduleName(c.env, AUTH_MODULE),
    database: await checkDatabase(config.database, (p) => c.executionCtx.waitUntil(p)),
  });
});

export default app;
