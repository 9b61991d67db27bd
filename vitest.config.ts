import { cloudflareTest } from '@cloudflare/vitest-plugin';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { moduleWorkers, type TestStack } from './dev/test/workers.ts';

// Projects, one `npm test`:
// - tooling:     the local dev tooling (database front, relay, offline model) and the pure
//                parts of bench/ (the retrieval evaluation's metrics and labels) in Node;
// - unit:        shared/ and per-worker code inside workerd, no services;
// - web:         the web app's components in jsdom, as a user sees and uses them;
// - integration: all four workers inside workerd (the gateway under test, the three modules as
//                auxiliary workers) against the real local database and model endpoint that
//                dev/test/global-setup.ts starts;
// - integration-model: the same, for the files that drive the offline model's controls, one
//                file at a time on a stack of their own;
// - faults:      the same, with a stack of its own that the tests break on purpose.
/** The integration files that drive the offline model's test controls (see the projects below). */
const MODEL_CONTROLLED = [
  'test/integration/chat.test.ts',
  'test/integration/chunks.test.ts',
  'test/integration/ingestion.test.ts',
  'test/integration/knowledge.test.ts',
  // Sets the service-wide limits, which would refuse other files' chats and uploads.
  'test/integration/usage.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        // Stops and restarts the whole local stack under load: Node, one file at a time.
        test: {
          name: 'reliability',
          environment: 'node',
          include: ['test/reliability/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // The OCR service (services/ocr) with its real PP-OCRv4 models; server.test.ts runs it as
        // its own process, as npm run dev does (dev/stack/ocr.ts).
        test: {
          name: 'ocr',
          environment: 'node',
          include: ['services/ocr/src/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'tooling',
          environment: 'node',
          // bench/: the pure parts of benchmarks and the retrieval evaluation (no stack);
          // test/docs: how the docs' examples are read and their outputs compared.
          include: ['dev/**/*.test.ts', 'bench/**/*.test.ts', 'test/docs/**/*.test.ts'],
          testTimeout: 30_000,
          // Hooks open a PGlite database (WASM): seconds on a quiet machine, more on a busy one.
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            miniflare: {
              compatibilityDate: '2026-11-01',
              // A worker that fails every request the way a crashed module does: the gateway's
              // unit test binds a module prefix to it (workers/gateway/src/module-traffic.test.ts).
              serviceBindings: { FAILING_MODULE: 'kbchat-test-failing-module' },
              workers: [
                {
                  name: 'kbchat-test-failing-module',
                  modules: true,
                  compatibilityDate: '2026-11-01',
                  script:
                    'export default { fetch() { throw new Error("boom at file:///srv/kbchat/internal.js:12:3"); } };',
                },
              ],
            },
          }),
        ],
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'workers/**/*.test.ts'],
          // One workerd and one module cache for all the files (they keep no state between them):
          // the project took 108 s on 2 cores with a fresh runtime per file, a third of it
          // spent transforming and importing the same modules again.
          isolate: false,
        },
      },
      {
        // The web app's Preact components, each test beside its component, in jsdom rather
        // than happy-dom: DOMPurify sanitises in jsdom as in a browser (under happy-dom it
        // handed `<img onerror>` back untouched), and jsdom's accessibility tree is what
        // Testing Library's role queries are written against. jsdom has no
        // `<dialog>.showModal()`: web/src/testing/setup.ts adds the part the app uses.
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
        resolve: {
          alias: [
            {
              find: /^cloudflare:workers$/,
              replacement: path.resolve(
                import.meta.dirname,
                'web/src/testing/workers-only-stub.ts',
              ),
            },
          ],
        },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.tsx', 'web/**/*.test.ts'],
          setupFiles: ['web/src/testing/setup.ts'],
          // One jsdom for all the files: each test renders into a cleaned document and keeps its
          // state in the components it renders.
          isolate: false,
        },
      },
      workersProject('integration', 'test/integration/**/*.test.ts', {
        exclude: MODEL_CONTROLLED,
      }),
      // Files that pin, slow or fail the offline model endpoint: one at a time, on a stack of
      // their own, so that one file's controls (and resets) never reach another's requests.
      workersProject('integration-model', MODEL_CONTROLLED, { fileParallelism: false }),
      // Takes the database away and back: its own stack, so no other test sees the outage.
      workersProject('faults', 'test/faults/**/*.test.ts'),
      {
        // The web app in headless Chromium against `npm run dev`'s stack, which the global
        // set-up builds, starts on a free port with a fresh data folder, and stops.
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['./test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 240_000,
          // A page step (log in, an answer streaming in) takes longer than poll's 1 s default.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});

/** All four workers in workerd against a stack of the project's own. */
function workersProject(
  name: string,
  include: string | string[],
  options: { exclude?: string[]; fileParallelism?: boolean } = {},
) {
  return {
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
              READER: { name: 'kbchat-reader', entrypoint: 'DocumentReader' },
            },
            r2Buckets: { FILES: 'kbchat-files' },
            workers: moduleWorkers(stack),
          },
        };
      }),
    ],
    test: {
      name,
      include: [include].flat(),
      ...options,
      globalSetup: ['./dev/test/global-setup.ts'],
      // One workerd and module cache for the project's files, as in unit: each file keeps its
      // state in its own users and collections, never in the modules.
      isolate: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}
