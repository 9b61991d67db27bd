// The query section's filtered searches (bench/run.ts): the knowledge worker's own hybrid
// statement (store/search.ts searchQuery) with and without document filters, over the same
// PGlite database and vectors, at the service's vector settings (migrations/0004 and 0016:
// ef_search 600, relaxed iterative scans, random_page_cost 1.1). Latency per filter, and the recall@10 of the
// vector list against exact search among the matching files only: the list a post-filter on
// an HNSW scan could starve.
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { loadKnowledgeStore, type DocumentFilterParams } from './nearest-chunks-query.ts';
import { stats, type Stats } from './stats.ts';
import { configuredEmbeddingModel } from '../dev/stack/embedding-model.ts';

export interface FilteredRun {
  name: string;
  filters: DocumentFilterParams | null;
  /** How the handler searches: unfiltered, the matching files named, or the filter in the statement. */
  path: string;
  /** The matching files' lookup, median (timed inside `hybrid` and `vector` as well). */
  lookup_p50_ms: number;
  /** Share of the chunks in files that match. */
  selectivity: number;
  hybrid: Stats;
  vector: Stats;
  /** The vector list's top-10 against exact search over the matching chunks. */
  recall_at_10: number;
}

export interface FilteredSearchInput {
  pg: PGlite;
  /** The files' ids, by document index (chunk `doc`). */
  fileIds: string[];
  /** Each chunk's document index; chunk ids are 1-based positions. */
  chunkDocs: number[];
  /** Each chunk's text, for its keyword terms (the section above leaves them out). */
  chunkTexts: string[];
  /** Cosine distance of chunk `id` (1-based) to query `q`. */
  distance: (id: number, q: number) => number;
  questions: string[];
  /** The query vectors as pgvector literals' numbers. */
  queryVectors: ArrayLike<number>[];
  top: number;
  warmup: number;
}

/**
 * Metadata of the seeded files, made so each filter keeps a known share: 1 file in 10 is the
 * Hangzhou government's, issue dates run evenly over 2019–2024 (the range asked keeps about
 * a third), 1 in 5 is repealed by the next file and 1 in 10 more expired.
 */
async function seedMetadata(pg: PGlite, fileIds: string[]): Promise<void> {
  await pg.query(
    `update files f set
       issuers = case when t.n % 10 = 0 then array['杭州市人民政府'] else array['四川省人民政府办公厅'] end,
       doc_type = case when t.n % 3 = 0 then '办法' else '通知' end,
       doc_number = '川办规〔2024〕' || t.n || '号',
       issued_on = date '2019-01-01' + (t.n * 2190 / $2::int)::int,
       effective_on = date '2019-02-01' + (t.n * 2190 / $2::int)::int,
       expires_on = case when t.n % 10 = 5 then date '2021-12-31' end
     from unnest($1::uuid[]) with ordinality as t(id, n) where f.id = t.id`,
    [fileIds, fileIds.length],
  );
  await pg.query(
    `insert into file_relations (file_id, relation, target_file_id, origin)
     select t.id, 'repeals', fileIds[t.n + 1], 'extracted'
     from unnest($1::uuid[]) with ordinality as t(id, n), (select $1::uuid[] as fileIds) ids
     where t.n % 5 = 0 and t.n < array_length($1::uuid[], 1)`,
    [fileIds],
  );
  await pg.exec('ANALYZE files; ANALYZE file_relations;');
}

export const FILTER_CASES: { name: string; filters: DocumentFilterParams | null }[] = [
  { name: 'none', filters: null },
  { name: 'issuer (10 % of files)', filters: { issuer: '杭州' } },
  { name: 'issued 2023–2024', filters: { issued_from: '2023-01-01', issued_to: '2024-12-31' } },
  { name: 'in force', filters: { in_force: true } },
  { name: 'type + issued from 2022', filters: { doc_type: '办法', issued_from: '2022-01-01' } },
  { name: 'one 文号 (1 file)', filters: { doc_number: '川办规[2024]7号' } },
];

export async function measureFilteredSearch(input: FilteredSearchInput): Promise<FilteredRun[]> {
  const { pg, fileIds, questions, top } = input;
  const store = await loadKnowledgeStore();
  const dialect = new PgDialect();
  await seedMetadata(pg, fileIds);
  // The keyword terms ingest would write (the vector section's rows have none), so that the
  // hybrid statement's keyword list searches here as it does in the service.
  for (let start = 0; start < input.chunkTexts.length; start += 1000) {
    const slice = input.chunkTexts.slice(start, start + 1000);
    await pg.query(
      `update chunks c set search_terms = t.terms::tsvector
       from unnest($1::bigint[], $2::text[]) as t(id, terms) where c.id = t.id`,
      [slice.map((_, i) => start + i + 1), slice.map((text) => store.tsvectorText(text))],
    );
  }
  await pg.exec('ANALYZE chunks;');
  // The service's settings for every session (migrations/0004, 0016), set here since this
  // PGlite session predates them.
  await pg.exec(
    `SET hnsw.ef_search = 600; SET hnsw.iterative_scan = relaxed_order; SET random_page_cost = 1.1`,
  );

  const runs: FilteredRun[] = [];
  for (const { name, filters } of FILTER_CASES) {
    const matching = new Set<number>();
    if (filters) {
      const q = dialect.sqlToQuery(
        sql`select f.id from files f where ${store.fileFilterCondition(filters)}`,
      );
      const { rows } = await pg.query<{ id: string }>(q.sql, q.params);
      const index = new Map(fileIds.map((id, i) => [id, i]));
      for (const row of rows) matching.add(index.get(row.id)!);
    } else {
      fileIds.forEach((_, i) => matching.add(i));
    }
    const kept = input.chunkDocs.flatMap((doc, i) => (matching.has(doc) ? [i + 1] : []));
    // As the query handler does (handlers/query.ts): the matching files counted first, named
    // when few, else the filters go into the statement. The lookup runs while the question is
    // embedded there; here it is timed as part of the query, which overstates the service.
    const scope = filters
      ? dialect.sqlToQuery(
          store.filteredScopeQuery(store.fileFilterCondition(filters)!, store.SMALL_SCOPE, {}),
        )
      : undefined;
    let path = 'unfiltered';
    /** The lookup's own time per query: in the service it overlaps the question's embedding. */
    const lookups: number[] = [];
    const run = async (mode: 'hybrid' | 'vector', q: number) => {
      let named: string[] | undefined;
      if (scope) {
        const started = performance.now();
        const { rows } = await pg.query<{ files: number; ids: string[] | null }>(
          scope.sql,
          scope.params,
        );
        lookups.push(performance.now() - started);
        if (Number(rows[0]!.files) === 0) return [];
        named = rows[0]!.ids ?? undefined;
        path = named ? 'files named' : 'filter in statement';
      }
      const s = dialect.sqlToQuery(
        store.searchQuery({
          mode,
          top,
          vector: Array.from(input.queryVectors[q]!),
          embeddingModel: configuredEmbeddingModel(process.env),
          terms: store.queryTerms(questions[q]!),
          ...(named ? { fileIds: named } : filters ? { filters } : {}),
        }),
      );
      return (await pg.query<{ id: string | number }>(s.sql, s.params)).rows;
    };
    const time = async (mode: 'hybrid' | 'vector') => {
      for (let q = 0; q < Math.min(input.warmup, questions.length); q++) await run(mode, q);
      const samples: number[] = [];
      const ids: number[][] = [];
      for (let q = 0; q < questions.length; q++) {
        const t = performance.now();
        const rows = await run(mode, q);
        samples.push(performance.now() - t);
        ids.push(rows.map((r) => Number(r.id)));
      }
      return { latency: stats(samples), ids };
    };
    const hybrid = await time('hybrid');
    const vector = await time('vector');
    let found = 0;
    let wanted = 0;
    vector.ids.forEach((got, q) => {
      const exact = kept
        .map((id) => ({ id, d: input.distance(id, q) }))
        .sort((a, b) => a.d - b.d || a.id - b.id)
        .slice(0, top);
      const kth = exact[exact.length - 1]?.d ?? 0;
      wanted += exact.length;
      // A result as near as the exact 10th counts (ties among near-equal lexical vectors).
      found += got.filter((id) => input.distance(id, q) <= kth + 1e-6).length;
    });
    runs.push({
      name,
      filters,
      path,
      lookup_p50_ms: lookups.length ? stats(lookups).median_ms : 0,
      selectivity: Math.round((kept.length / input.chunkDocs.length) * 1000) / 1000,
      hybrid: hybrid.latency,
      vector: vector.latency,
      recall_at_10: wanted ? Math.round((Math.min(found, wanted) / wanted) * 1000) / 1000 : 1,
    });
  }
  await pg.exec('RESET hnsw.ef_search; RESET hnsw.iterative_scan; RESET random_page_cost');
  return runs;
}
