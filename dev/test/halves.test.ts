import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { HALVES } from './halves.ts';

it('runs every project of vitest.config.ts in one half of npm test, once', async () => {
  const config = await readFile(
    path.resolve(import.meta.dirname, '../../vitest.config.ts'),
    'utf8',
  );
  const declared = [
    ...config.matchAll(/\bname: '([a-z0-9-]+)'/g),
    ...config.matchAll(/workersProject\('([a-z0-9-]+)'/g),
  ]
    .map((match) => match[1]!)
    .filter((name) => !name.startsWith('kbchat-'));
  expect(declared.length).toBeGreaterThan(0);
  expect([...HALVES.workerd, ...HALVES.node].sort()).toEqual([...new Set(declared)].sort());
});
