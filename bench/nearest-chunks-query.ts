// The knowledge worker's own statements, loaded into a Node script, so that benchmarks measure
// (and EXPLAIN) exactly what the service runs: the nearest-chunks search and the file list.
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SQL } from 'drizzle-orm';

export type NearestChunksQuery = (
  vector: number[],
  options: { top: number; fileIds?: string[] },
) => SQL;

/** Builds the list statement on any Postgres drizzle database (e.g. `drizzle.mock()`). */
export type ListFiles = (
  db: unknown,
  ids: string[] | undefined,
) => { toSQL(): { sql: string; params: unknown[] } };

interface KnowledgeStore {
  nearestChunksQuery: NearestChunksQuery;
  listFiles: ListFiles;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let loaded: Promise<KnowledgeStore> | undefined;

// workers/ and shared/ are written for the bundler: their relative imports carry no extension.
// Let Node find those files the same way, for the knowledge worker's sources and shared/ only
// (once per process: hooks stack).
export function loadKnowledgeStore(): Promise<KnowledgeStore> {
  loaded ??= (async () => {
    const bundled = ['workers/knowledge/src', 'shared'].map(
      (dir) => pathToFileURL(path.join(root, dir) + path.sep).href,
    );
    registerHooks({
      resolve(specifier, context, nextResolve) {
        const parent = context.parentURL ?? '';
        const fromBundled = bundled.some((prefix) => parent.startsWith(prefix));
        if (fromBundled && specifier.startsWith('.') && path.extname(specifier) === '') {
          return nextResolve(`${specifier}.ts`, context);
        }
        return nextResolve(specifier, context);
      },
    });
    // A computed specifier: dev/'s type checker (NodeNext) does not follow it into workers/.
    const file = pathToFileURL(path.join(root, 'workers/knowledge/src/store/files.ts')).href;
    return (await import(file)) as KnowledgeStore;
  })();
  return loaded;
}

export async function loadNearestChunksQuery(): Promise<NearestChunksQuery> {
  return (await loadKnowledgeStore()).nearestChunksQuery;
}
