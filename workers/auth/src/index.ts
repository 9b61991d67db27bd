import { authService } from '#shared/contracts/auth';
import { createLogger } from '#shared/log/logger';
import { defineWorker } from '#shared/module/define-worker';
import { moduleName } from '#shared/module/module-app';
import { pruneAuditTrail } from './audit/prune';
import { authConfig } from './config';
import { AUTH_MODULE } from './module';
import { authImpl } from './service';

// Every auth request is a small JSON or form document; anything bigger is refused unread.
const MAX_BODY_BYTES = 16 * 1024;

const worker = defineWorker<AuthEnv, typeof authService>({
  module: AUTH_MODULE,
  service: authService,
  impl: authImpl,
  settings: (env) => authConfig(env),
  bodyLimit: () => ({ bytes: MAX_BODY_BYTES }),
});

/** What the other workers call over their AUTH service binding (GetMe settles a session). */
export const AuthRpc = worker.rpcEntrypoint();

export default {
  fetch: worker.app.fetch,
  /** The cron trigger (wrangler.toml [triggers]): the audit trail's retention, once a day. */
  async scheduled(_controller: ScheduledController, env: AuthEnv) {
    await pruneAuditTrail(env, createLogger({ module: moduleName(env, AUTH_MODULE) }));
  },
} satisfies ExportedHandler<AuthEnv>;
