/** The workers behind the gateway, each deployed from its own config. */
export const MODULE_WORKERS = [
  { name: 'auth', config: 'workers/auth/wrangler.toml' },
  { name: 'knowledge', config: 'workers/knowledge/wrangler.toml' },
  { name: 'chat', config: 'workers/chat/wrangler.toml' },
  // The knowledge module's document reader: parsing of uploads, in a worker of its own.
  { name: 'reader', config: 'workers/knowledge/reader/wrangler.toml' },
] as const;
export type ModuleWorker = (typeof MODULE_WORKERS)[number]['name'];

/**
 * What one `wrangler dev` process runs: the gateway first (it serves only the first config on
 * its port) and the modules that serve requests.
 */
export const SERVING_CONFIGS = [
  'wrangler.toml',
  'workers/auth/wrangler.toml',
  'workers/knowledge/wrangler.toml',
  'workers/chat/wrangler.toml',
] as const;

/**
 * The reader runs in a `wrangler dev` process of its own, reached through the dev registry: a
 * document that takes its runtime down (out of memory) takes nothing else down with it, and
 * wrangler restarts it.
 */
export const READER_CONFIG = 'workers/knowledge/reader/wrangler.toml';

/**
 * The environment for wrangler runs on this machine and CI: no network calls besides the
 * ones the service makes (no `Request.cf` download, no telemetry).
 */
export function wranglerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_LOG_SANITIZE: 'true',
  };
}
