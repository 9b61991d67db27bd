/** The gateway first: `wrangler dev` serves only the first config on its port. */
export const WORKER_CONFIGS = [
  'wrangler.toml',
  'workers/auth/wrangler.toml',
  'workers/knowledge/wrangler.toml',
  'workers/chat/wrangler.toml',
] as const;

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
