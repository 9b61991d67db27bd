import { createAuthorize } from '#shared/auth/authorize';
import { settleSession } from '#shared/auth/session';
import { checkSession, keySession } from '#shared/db/request-db';
import { knowledgeService } from '#shared/contracts/knowledge';
import { createLogger } from '#shared/log/logger';
import { createModuleApp, moduleName } from '#shared/module/module-app';
import { reviveStalledIngests } from './pipeline/watchdog';
import { mountService, rpcEntrypoint } from '#shared/service';
import { knowledgeConfig } from './config';
import { knowledgeImpl } from './impl';
import { KNOWLEDGE_MODULE } from './module';
import { knowledgeBodyLimit } from './body-limit';

// The session check rides along with each call's own statements (every knowledge route runs
// at least one); a call that ran none settles it with the check alone.
const authorize = createAuthorize<KnowledgeEnv>({
  verification: (env) => knowledgeConfig(env).verification,
  checkSession: (access, claim) => checkSession(knowledgeConfig(access.env).database, claim),
  resolveKey: (access, hash) => keySession(knowledgeConfig(access.env).database, hash),
});

const app = createModuleApp<{ Bindings: KnowledgeEnv }>(KNOWLEDGE_MODULE);
mountService(app, knowledgeService, knowledgeImpl, {
  authorize,
  settle: settleSession,
  bodyLimit: knowledgeBodyLimit,
});

/** What chat calls over its KNOWLEDGE service binding: the methods marked @grpc. */
export const KnowledgeRpc = rpcEntrypoint(knowledgeService, knowledgeImpl, {
  authorize,
  settle: settleSession,
});

/** The ingestion workflow (wrangler.toml [[workflows]]). */
export { IngestFile } from './pipeline/ingest-workflow';

export default {
  fetch: app.fetch,
  /** The cron trigger: ingests that stopped moving get going again. */
  async scheduled(_controller: ScheduledController, env: KnowledgeEnv) {
    await reviveStalledIngests(env, createLogger({ module: moduleName(env, KNOWLEDGE_MODULE) }));
  },
} satisfies ExportedHandler<KnowledgeEnv>;
