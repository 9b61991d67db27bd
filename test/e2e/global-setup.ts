// The e2e project's global set-up: starts what `npm run dev` starts (database,
// offline model endpoint, all four workers with wrangler dev) on a free port with a fresh data
// folder of its own, on the production web bundle (minified, as deployed), and stops it with
// SIGINT (as Ctrl-C would) at the end.
//
// Ingestion is tuned so that the page can be seen following it: a few chunks per workflow
// step (progress moves in several steps, not one), and failed steps retried twice, quickly
// (a file whose model stays away fails in about a second, not after minutes of backoff).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { LOCAL_ADMIN } from '../../dev/stack/seed.ts';
import { launchDev } from '../../dev/stack/launch-dev.ts';
import { buildWeb } from '../../dev/web-build.ts';
import type { E2eStack } from './stack';

export default async function setup(project: TestProject) {
  // npm test builds the bundle once for all its stacks; run alone, this project builds it.
  if (process.env.KBCHAT_WEB_PREBUILT !== '1') await buildWeb({ quiet: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-e2e-'));
  const dev = await launchDev({
    dataDir,
    env: {
      KBCHAT_WEB_PREBUILT: '1',
      KBCHAT_VAR_INGEST_PAGES_PER_STEP: '2',
      KBCHAT_VAR_INGEST_CHUNKS_PER_STEP: '4',
      KBCHAT_VAR_INGEST_RETRY_LIMIT: '2',
      KBCHAT_VAR_INGEST_RETRY_DELAY_MS: '200',
    },
  });
  const stack: E2eStack = {
    baseUrl: dev.baseUrl,
    admin: LOCAL_ADMIN,
    modelControlUrl: dev.modelControlUrl,
  };
  project.provide('e2e', stack);
  return async () => {
    await dev.stop('SIGINT');
    await rm(dataDir, { recursive: true, force: true });
  };
}
