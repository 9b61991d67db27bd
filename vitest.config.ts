import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { moduleWorkers, type TestStack } from './dev/test/workers.ts';

// Three projects, one `npm test`:
// - tooling:     the local dev tooling (database front, relay, offline model) in Node;
// - unit:        shared/ and per-worker code inside workerd, no services;
// - integration: all four workers inside workerd (the gateway under test, the three modules as
//                auxiliary workers) against the real local database and model endpoint that
//                dev/test/global-setup.ts starts.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'tooling',
          environment: 'node',
          include: ['dev/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            miniflare: { compatibilityDate: '2026-11-01' },
          }),
        ],
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'workers/**/*.test.ts'],
        },
      },
      {
        plugins: [
          cloudflareTest(async ({ inject }) => {
            const stack = inject<TestStack>('stack');
            return {
              main: './workers/gateway/src/index.ts',
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                // The test isolate reaches the modules' RPC entrypoints and sees knowledge's
                // bucket (same bucket name, same storage), to check what was left behind.
                serviceBindings: {
                  KNOWLEDGE_RPC: { name: 'kbchat-knowledge', entrypoint: 'KnowledgeRpc' },
                  AUTH_RPC: { name: 'kbchat-auth', entrypoint: 'AuthRpc' },
                },
                r2Buckets: { FILES: 'kbchat-files' },
                workers: moduleWorkers(stack),
              },
            };
          }),
        ],
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['./dev/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
