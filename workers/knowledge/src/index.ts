import { knowledgeService } from '#shared/contracts/knowledge';
import { createLogger } from '#shared/log/logger';
import { defineWorker } from '#shared/module/define-worker';
import { moduleName } from '#shared/module/module-app';
import { knowledgeBodyLimit } from './body-limit';
import { knowledgeConfig } from './config';
import { KNOWLEDGE_MODULE } from './module';
import { reviveStalledIngests } from './pipeline/watchdog';
import { knowledgeImpl } from './service';

// Every knowledge route runs at least one statement: the session check rides along with it.
const worker = defineWorker<KnowledgeEnv, typeof knowledgeService>({
  module: KNOWLEDGE_MODULE,
  service: knowledgeService,
  impl: knowledgeImpl,
  settings: (env) => knowledgeConfig(env),
  bodyLimit: knowledgeBodyLimit,
});

/** What chat calls over its KNOWLEDGE service binding: the methods marked @grpc. */
export const KnowledgeRpc = worker.rpcEntrypoint();

/** The ingestion workflow (wrangler.toml [[workflows]]). */
export { IngestFile } from './pipeline/ingest-workflow';
/** The re-index workflow (wrangler.toml [[workflows]]). */
export { ReindexChunks } from './pipeline/reindex-workflow';

export default {
  fetch: worker.app.fetch,
  /** The cron trigger: ingests that stopped moving get going again. */
  async scheduled(_controller: ScheduledController, env: KnowledgeEnv) {
    await reviveStalledIngests(env, createLogger({ module: moduleName(env, KNOWLEDGE_MODULE) }));
  },
} satisfies ExportedHandler<KnowledgeEnv>;
