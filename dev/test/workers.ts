import path from 'node:path';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import type { TestStack } from '../../test/stack.ts';

export type { TestStack };

import { MODULE_WORKERS, type ModuleWorker } from '../stack/wrangler.ts';

const root = path.resolve(import.meta.dirname, '../..');

// Small embedding batches in tests, so that a few-page PDF already takes several model
// requests (batching, and failures half-way through a file, get exercised).
// The workers trust CF-Connecting-IP as they do on Cloudflare, where the edge sets it: the tests send
// one address per test, as clients behind different addresses would come (so tests that fail
// logins on purpose never throttle each other).
// Ingestion steps are retried after 50 ms (not 2 s, doubling), so a test of a failing model
// endpoint sees the file fail within a second; a stalled ingest is revived after 5 s; 40
// chunks per step, so that a file of a few pages already takes several indexing steps.
const TEST_OVERRIDES: Partial<Record<ModuleWorker, Record<string, string>>> = {
  knowledge: {
    EMBEDDING_BATCH_INPUTS: '4',
    INGEST_RETRY_LIMIT: '2',
    INGEST_CHUNKS_PER_STEP: '40',
    INGEST_RETRY_DELAY_MS: '50',
    INGEST_STALE_SECONDS: '5',
    TRUST_CF_CONNECTING_IP: 'true',
  },
  auth: { TRUST_CF_CONNECTING_IP: 'true' },
  chat: { TRUST_CF_CONNECTING_IP: 'true' },
};

/**
 * The module workers (and knowledge's reader) as Miniflare auxiliary workers: their bindings
 * come from their own wrangler config (so tests see what deploys), their code from the
 * pre-built bundle (auxiliary workers cannot be bundled by the test plugin).
 */
export function moduleWorkers(stack: TestStack) {
  return MODULE_WORKERS.map(({ name, config }) => {
    const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, config));
    // The bundle is already built: module rules only apply to unbundled sources.
    delete workerOptions.modulesRules;
    // The OCR container worker needs Docker and is not run here: the stack's OCR_URL is used.
    const services = workerOptions.serviceBindings as Record<string, unknown> | undefined;
    if (services) delete services.OCR_SERVICE;
    const bundle = path.join(stack.distDir, name, 'index.js');
    return {
      ...workerOptions,
      name: `kbchat-${name}`,
      modules: true as const,
      scriptPath: bundle,
      modulesRoot: path.dirname(bundle),
      bindings: {
        ...(workerOptions.bindings as Record<string, string>),
        ...stack.workerEnv,
        ...TEST_OVERRIDES[name],
      },
    };
  });
}
