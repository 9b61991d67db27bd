import { describe, expect, it } from 'vitest';
import { functionsFromMigrations, functionsFromSources, normalised } from './sql-functions.ts';

describe('the SQL functions', () => {
  it('each has its current source in a db/functions file, the same as the last migration that defines it', async () => {
    const migrated = await functionsFromMigrations();
    const sources = await functionsFromSources();
    expect([...sources.keys()].sort()).toEqual([...migrated.keys()].sort());
    const differing = [...migrated.values()]
      .filter((fn) => normalised(fn.statement) !== normalised(sources.get(fn.name)!.statement))
      .map((fn) => `${sources.get(fn.name)!.file} differs from ${fn.file}`);
    expect(differing).toEqual([]);
  });
});
