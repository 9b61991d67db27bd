/** What the test stack (dev/test/global-setup.ts) hands to the workers and tests. */
export interface TestStack {
  /** postgres:// URL of the local database front (or of DATABASE_URL when one is set). */
  databaseUrl: string;
  /** host:port of the WebSocket relay the Neon driver goes through; empty for Neon itself. */
  databaseProxy: string;
  /** Base URL (…/v1) of the OpenAI-compatible model endpoint. */
  modelBaseUrl: string;
  /** Base URL of that endpoint's test controls (record requests, fail on demand). */
  modelControlUrl: string;
  /** The stack's own controls: POST /database/suspend and /database/resume. */
  stackControlUrl: string;
  /** The settings every module worker receives (DSNs, relay, model endpoint, token keys). */
  workerEnv: Record<string, string>;
  /** The first super admin the stack seeded. */
  admin: { username: string; password: string };
  /** Folder holding each module worker's bundle, built by `wrangler deploy --dry-run`. */
  distDir: string;
}
