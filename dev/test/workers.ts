import path from 'node:path';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';

/** What the test stack (global-setup.ts) hands to the workers under test. */
export interface TestStack {
  /** postgres:// URL of the local database front (or of DATABASE_URL when one is set). */
  databaseUrl: string;
  /** host:port of the WebSocket relay the Neon driver goes through; empty for Neon itself. */
  databaseWsProxy: string;
  /** Base URL (…/v1) of the OpenAI-compatible model endpoint. */
  modelBaseUrl: string;
  /** Base URL of that endpoint's test controls (record requests, fail on demand). */
  modelControlUrl: string;
  /** Folder holding each module worker's bundle, built by `wrangler deploy --dry-run`. */
  distDir: string;
}

export const MODULES = ['auth', 'knowledge', 'chat'] as const;
export type ModuleFolder = (typeof MODULES)[number];

const root = path.resolve(import.meta.dirname, '../..');

/** Settings every module receives locally, the same in `npm run dev` and in tests. */
export function localBindings(stack: Omit<TestStack, 'distDir'>): Record<string, string> {
  return {
    DATABASE_URL: stack.databaseUrl,
    DATABASE_WS_PROXY: stack.databaseWsProxy,
    MODEL_BASE_URL: stack.modelBaseUrl,
    MODEL_API_KEY: 'local-offline-model',
  };
}

/**
 * The three module workers as Miniflare auxiliary workers: their bindings come from their own
 * wrangler config (so tests see what deploys), their code from the pre-built bundle (auxiliary
 * workers cannot be bundled by the test plugin).
 */
export function moduleWorkers(stack: TestStack) {
  return MODULES.map((folder) => {
    const { workerOptions } = unstable_getMiniflareWorkerOptions(
      path.join(root, 'workers', folder, 'wrangler.toml'),
    );
    // The bundle is already built: module rules only apply to unbundled sources.
    delete workerOptions.modulesRules;
    const bundle = path.join(stack.distDir, folder, 'index.js');
    const config = localBindings(stack);
    return {
      ...workerOptions,
      name: `kbchat-${folder}`,
      modules: true as const,
      scriptPath: bundle,
      modulesRoot: path.dirname(bundle),
      bindings: { ...(workerOptions.bindings as Record<string, string>), ...config },
    };
  });
}
