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
  filter: { ids?: string[]; collectionIds?: string[] },
) => { toSQL(): { sql: string; params: unknown[] } };

export type SearchMode = 'hybrid' | 'vector' | 'keyword';

/** store/search-filters.ts: what documents say of themselves, as a search filters on it. */
export interface DocumentFilterParams {
  issuer?: string;
  doc_number?: string;
  doc_type?: string;
  issued_from?: string;
  issued_to?: string;
  effective_from?: string;
  effective_to?: string;
  in_force?: boolean;
}

/** The query route's statement (store/search.ts): both lists fused, or one, in one statement. */
export type SearchQuery = (options: {
  mode: SearchMode;
  top: number;
  fileIds?: string[];
  /** Only these collections: the route's explicit filter (the policies apply besides). */
  collectionIds?: string[];
  /** The files the caller can read when they are a small scope, for the vector list. */
  readableFileIds?: string[];
  vector: number[];
  /** The model that made `vector` (`name@dimensions`): only its chunks are compared. */
  embeddingModel: string;
  terms: string[];
  /** Document filters: both lists keep to the files that match. */
  filters?: DocumentFilterParams;
}) => SQL;

interface KnowledgeStore {
  nearestChunksQuery: NearestChunksQuery;
  listFiles: ListFiles;
  searchQuery: SearchQuery;
  /** The question's keyword terms, as the query handler makes them (ingest/search-terms.ts). */
  queryTerms: (text: string) => string[];
  /** A chunk's search terms as tsvector text, as ingest writes them. */
  tsvectorText: (text: string) => string;
  /** One term as a quoted lexeme (the tsquery text searchQuery writes for it). */
  quoteLexeme: (term: string) => string;
  /** store/search.ts: terms in more of the chunks than this share are left out… */
  COMMON_TERM_SHARE: number;
  /** …unless the knowledge base has fewer chunks than this. */
  COMMON_TERM_MIN_ROWS: number;
  /** store/search.ts: the files the caller can read, when they are a small scope. */
  smallScopeQuery: () => SQL;
  /** store/search-filters.ts: the condition a files row `f` meets for the filters. */
  fileFilterCondition: (filters: DocumentFilterParams) => SQL | undefined;
  /** …and the matching files counted, named when they are a small scope (the query handler). */
  filteredScopeQuery: (
    condition: SQL,
    limits: { chunks: number; files: number },
    within: { fileIds?: string[]; collectionIds?: string[] },
  ) => SQL;
  SMALL_SCOPE: { chunks: number; files: number };
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
    // Computed specifiers: dev/'s type checker (NodeNext) does not follow them into workers/.
    const load = (file: string) => import(pathToFileURL(path.join(root, file)).href);
    const [files, search, terms, filters] = await Promise.all([
      load('workers/knowledge/src/store/files.ts'),
      load('workers/knowledge/src/store/search.ts'),
      load('workers/knowledge/src/ingest/search-terms.ts'),
      load('workers/knowledge/src/store/search-filters.ts'),
    ]);
    return { ...files, ...search, ...terms, ...filters } as KnowledgeStore;
  })();
  return loaded;
}

export async function loadNearestChunksQuery(): Promise<NearestChunksQuery> {
  return (await loadKnowledgeStore()).nearestChunksQuery;
}
