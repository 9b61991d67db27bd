/**
 * The vitest projects of `npm test` (vitest.config.ts) in its two processes: those inside
 * workerd, and those in Node. Every project is in one of them (dev/test/halves.test.ts).
 */
export const HALVES = {
  workerd: ['unit', 'integration', 'integration-model', 'faults'],
  node: ['tooling', 'ocr', 'web', 'e2e', 'reliability'],
} as const;
