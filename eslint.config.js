import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// What a file may import is part of the architecture:
// - shared/ is used by every worker and imports no worker;
// - a worker imports shared/ and its own folder, never another worker's code (chat may name
//   knowledge's RPC types, which the generated Env does for it);
// - dev/ is Node tooling; workers never import it (their tests may use dev/fixtures);
// - bench/ measures the service as it runs (through dev/'s stack, or the knowledge worker's
//   own statements loaded by bench/nearest-chunks-query.ts): it imports dev/ and shared/,
//   never a test, the web app or a worker's module directly.
const noWorkers = { group: ['**/workers/**'], message: 'shared/ must not depend on a worker.' };
// Code outside shared/ reaches it through the package's import alias, never by climbing.
const viaAlias = {
  regex: '^(\\.\\./)+shared(/|$)',
  message: 'Import shared code as #shared/… (package.json "imports").',
};
const noDevTooling = { group: ['**/dev/**'], message: 'Worker code must not import dev tooling.' };
// An audit record is written one way: through the worker's store/audit.ts (`recorded` and the
// helpers that name an object), never by building kbchat_audit's statement elsewhere.
const auditOnlyInStore = {
  name: '#shared/audit/record',
  importNames: ['auditSql'],
  message: "Write audit records through the worker's store/audit.ts (recorded, userRecorded…).",
};
const otherWorker = (self) => ({
  group: ['auth', 'knowledge', 'chat', 'gateway']
    .filter((w) => w !== self)
    .map((w) => `**/workers/${w}/**`),
  message: 'Workers talk through service bindings, not imports.',
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '**/.wrangler/',
      '.data/',
      'migrations/',
      '**/worker-configuration.d.ts',
      'test-results/',
      'bench-results/',
      'workers/gateway/public/assets/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Plain-JavaScript Node scripts (they run before the project's Node is installed).
    files: ['dev/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
  {
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/workers/**'], message: 'Benchmarks measure workers as they run.' },
            { group: ['**/test/**', '**/web/**'], message: 'Benchmarks import dev/ and shared/.' },
            viaAlias,
          ],
        },
      ],
    },
  },
  {
    files: ['dev/**/*.ts', 'test/**/*.ts', 'web/**/*.{ts,tsx}'],
    ignores: ['test/env.d.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [viaAlias] }] },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWorkers, noDevTooling] }] },
  },
  ...['auth', 'knowledge', 'chat', 'gateway'].map((worker) => ({
    files: [`workers/${worker}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.ts', `workers/${worker}/src/store/audit.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [auditOnlyInStore], patterns: [otherWorker(worker), noDevTooling, viaAlias] },
      ],
    },
  })),
  // The one file that builds audit statements in each worker.
  ...['auth', 'knowledge', 'chat', 'gateway'].map((worker) => ({
    files: [`workers/${worker}/src/store/audit.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [otherWorker(worker), noDevTooling, viaAlias] },
      ],
    },
  })),
  // Tests may build their inputs with the dev fixtures (generated PDFs).
  ...['auth', 'knowledge', 'chat', 'gateway'].map((worker) => ({
    files: [`workers/${worker}/**/*.test.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherWorker(worker), viaAlias] }] },
  })),
);
