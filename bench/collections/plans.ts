// The shape of a plan, read from EXPLAIN (ANALYZE, BUFFERS): did the vector list use HNSW and
// how many rows did a filter throw away after it, did the keyword list use the GIN index, how
// did the last join find its rows. Latency says how long; this says why.
import type { PGlite } from '@electric-sql/pglite';
import type { SearchMode, SearchQuery } from '../nearest-chunks-query.ts';
import { inRole, TOP, type Question, type Role, type RunOptions, type Scope } from './measure.ts';

export interface PlanShape {
  /** The vector list read the HNSW index. */
  hnsw: boolean;
  /** Rows the HNSW index scan handed up that a filter (policy, ready, explicit) removed. */
  hnsw_removed_by_filter: number | null;
  /**
   * How the keyword list found its chunks. In the served statement it is a call of
   * kbchat_keyword_candidates (`function`); inside that function, the GIN index (`gin bitmap`)
   * or a scan of every chunk.
   */
  keyword: 'function' | 'gin bitmap' | 'seq scan' | 'none' | 'other';
  /** Seq scans of chunks in the plan (per loop counted once) and their loops in total. */
  chunk_seq_scans: number;
  chunk_seq_scan_loops: number;
  /**
   * How the statement's last join (`join chunks on chunks.id = fused.id`) finds its 10 rows: by
   * the primary key, or by reading every chunk the caller can see (the owner: all) into a hash.
   * An inlined `fused` forced the hash under RLS (its key was a COALESCE, not leakproof); with
   * `fused` materialised the planner may still choose it from its row estimates.
   */
  final_join: 'pk index' | 'hash over visible chunks' | 'other';
  /** The btree on collection_id (an option) was used. */
  collection_btree: boolean;
  shared_hit: number | null;
  shared_read: number | null;
  execution_ms: number | null;
  summary: string;
}

type ExplainRows = { rows: { 'QUERY PLAN': string }[] };
const planText = ({ rows }: ExplainRows) => rows.map((r) => r['QUERY PLAN']).join('\n');

/** The served statement's plan for the first question, in the role the run used. */
export async function explainAnalyze(
  pg: PGlite,
  searchQuery: SearchQuery,
  scope: Scope,
  q: Question,
  mode: SearchMode,
  options: RunOptions,
): Promise<{ shape: PlanShape; plan: string }> {
  const plan = await inRole(pg, searchQuery, scope, q, mode, options, async (tx, text, values) =>
    planText(await tx.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values)),
  );
  return { shape: planShape(plan, mode), plan };
}

/** What searchQuery passes the keyword function besides the question (store/search.ts). */
export interface KeywordStore {
  quoteLexeme: (term: string) => string;
  COMMON_TERM_SHARE: number;
  COMMON_TERM_MIN_ROWS: number;
}

/** The keyword function's parameters, in its order, as searchQuery passes them. */
const KEYWORD_PARAMETERS = [
  ['p_queries', 'tsquery[]'],
  ['p_terms', 'text[]'],
  ['p_depth', 'int'],
  ['p_file_ids', 'uuid[]'],
  ['p_collection_ids', 'uuid[]'],
  ['p_common_share', 'float8'],
  ['p_min_rows', 'int'],
] as const;

/**
 * EXPLAIN of the statement inside kbchat_keyword_candidates (migration 0012). The outer plan
 * shows a Function Scan only, and whether the GIN index serves `@@` is decided inside. Its body
 * (from pg_catalog, so what the migrations installed) runs with the parameters as $1…$7, as
 * the tables' owner after the same session check: what SECURITY DEFINER runs, whichever role
 * calls. The roles differ only in the collections passed (the owner's explicit filter).
 */
export async function explainKeywordFunction(
  pg: PGlite,
  scope: Scope,
  q: Question,
  role: Role,
  store: KeywordStore,
): Promise<{ shape: PlanShape; plan: string }> {
  const { rows } = await pg.query<{ body: string }>(
    `select prosrc as body from pg_proc where proname = 'kbchat_keyword_candidates'`,
  );
  let body = rows[0]!.body;
  KEYWORD_PARAMETERS.forEach(([name, type], i) => {
    body = body.replace(new RegExp(`\\b${name}\\b`, 'g'), `$${i + 1}::${type}`);
  });
  const values = [
    q.terms.map(store.quoteLexeme),
    q.terms,
    TOP,
    null,
    role === 'owner' ? scope.collections : null,
    store.COMMON_TERM_SHARE,
    store.COMMON_TERM_MIN_ROWS,
  ];
  const plan = await pg.transaction(async (tx) => {
    await tx.query('select * from kbchat_session($1::uuid, $2::int, false)', [
      scope.user.id,
      scope.user.epoch,
    ]);
    return planText(await tx.query(`EXPLAIN (ANALYZE, BUFFERS) ${body}`, values));
  });
  return { shape: planShape(plan, 'keyword'), plan };
}

export function planShape(plan: string, mode: SearchMode): PlanShape {
  const lines = plan.split('\n');
  const hnswAt = lines.findIndex((l) => /Index Scan using \S*hnsw\S*/.test(l));
  let removed: number | null = null;
  if (hnswAt >= 0) {
    // "Rows Removed by Filter" of the HNSW node itself: its detail lines, before a child node.
    const indent = lines[hnswAt]!.search(/\S/);
    for (let i = hnswAt + 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.search(/\S/) <= indent || line.trimStart().startsWith('->')) break;
      const m = /Rows Removed by Filter: (\d+)/.exec(line);
      if (m) removed = Number(m[1]);
    }
  }
  // A node the executor never ran (e.g. the keyword function's count(*) fallback for N) read
  // nothing: not counted.
  const seqLines = lines.filter((l) => /Seq Scan on chunks/.test(l) && !/never executed/.test(l));
  const loops = seqLines.reduce((sum, l) => sum + Number(/loops=(\d+)/.exec(l)?.[1] ?? 1), 0);
  const gin = lines.some((l) => /Bitmap Index Scan on chunks_search_terms_idx/.test(l));
  const fn = lines.some((l) => /Function Scan on kbchat_keyword_candidates/.test(l));
  const keyword: PlanShape['keyword'] =
    mode === 'vector'
      ? 'none'
      : fn
        ? 'function'
        : gin
          ? 'gin bitmap'
          : seqLines.length
            ? 'seq scan'
            : 'other';
  const buffers = /Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(plan);
  const execution = /Execution Time: ([\d.]+) ms/.exec(plan);
  const collectionBtree = /chunks_collection_id_idx/.test(plan);
  // The file index serves a filter on file ids: chosen files, or the route's small scope.
  const fileIndex = /Index Scan on chunks_file_id_index_key|Index Scan using chunks_file_id/.test(
    plan,
  );
  // The hash's key is chunks.id on either side (the planner puts the smaller estimate inside).
  const finalJoin: PlanShape['final_join'] =
    /Hash Cond: \((chunks\.id = \w+\.id|\w+\.id = chunks\.id)\)/.test(plan)
      ? 'hash over visible chunks'
      : /Index Scan using chunks_pkey on chunks /.test(plan)
        ? 'pk index'
        : 'other';
  const vectorPart =
    mode === 'keyword'
      ? ''
      : hnswAt >= 0
        ? `hnsw (${removed ?? 0} removed by filter)`
        : collectionBtree
          ? 'collection btree + sort'
          : fileIndex
            ? 'file index + sort'
            : 'seq scan + sort';
  const keywordPart = mode === 'vector' ? '' : `keyword: ${keyword}`;
  return {
    hnsw: hnswAt >= 0,
    hnsw_removed_by_filter: removed,
    keyword,
    chunk_seq_scans: seqLines.length,
    chunk_seq_scan_loops: loops,
    final_join: finalJoin,
    collection_btree: collectionBtree,
    shared_hit: buffers?.[1] ? Number(buffers[1]) : null,
    shared_read: buffers?.[2] ? Number(buffers[2]) : null,
    execution_ms: execution ? Number(execution[1]) : null,
    summary: [vectorPart, keywordPart].filter(Boolean).join('; '),
  };
}
