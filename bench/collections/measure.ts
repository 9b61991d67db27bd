// Timed runs of the query route's statement (workers/knowledge/src/store/search.ts searchQuery)
// as the app role under row-level security or as the owner with an explicit collection filter,
// recall@10 against exact search, and the shape of EXPLAIN (ANALYZE, BUFFERS).
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SearchMode, SearchQuery } from '../nearest-chunks-query.ts';
import { distance, type Neighbour, type Sparse } from '../index-design/vectors.ts';
import { stats, type Stats } from '../stats.ts';
import { asApp, asOwner, type BenchUser } from './setup.ts';

export const TOP = 10;
const EPS = 1e-6;
const WARMUP = 3;

export type Role = 'app' | 'owner';

export interface Question {
  text: string;
  vector: number[];
  unit: Float64Array;
  terms: string[];
}

export interface Scope {
  user: BenchUser;
  /** The collections the user reads: the owner's explicit filter. */
  collections: string[];
}

type Tx = Pick<PGlite, 'query' | 'exec'>;

const dialect = new PgDialect();

export function statement(
  searchQuery: SearchQuery,
  q: Question,
  mode: SearchMode,
  collectionIds?: string[],
): { text: string; values: unknown[] } {
  const query = searchQuery({
    mode,
    top: TOP,
    vector: q.vector,
    terms: q.terms,
    ...(collectionIds ? { collectionIds } : {}),
  });
  const { sql, params } = dialect.sqlToQuery(query);
  return { text: sql, values: params };
}

export interface RunOptions {
  role: Role;
  /** `SET LOCAL …` before the statement (e.g. `enable_indexscan = off`). */
  settings?: string[];
  /** Also pass the collections as the route's explicit filter when running as the app. */
  explicitFilter?: boolean;
  /** A change to the statement's text (an experiment on its shape). */
  rewrite?: (text: string) => string;
}

export async function runOnce(
  pg: PGlite,
  searchQuery: SearchQuery,
  scope: Scope,
  q: Question,
  mode: SearchMode,
  options: RunOptions,
): Promise<{ ms: number; ids: number[] }> {
  const filter = options.role === 'owner' || options.explicitFilter ? scope.collections : undefined;
  const built = statement(searchQuery, q, mode, filter);
  const values = built.values;
  const text = options.rewrite ? options.rewrite(built.text) : built.text;
  const work = async (tx: Tx) => {
    const t0 = performance.now();
    const { rows } = await tx.query<{ id: string | number }>(text, values);
    return { ms: performance.now() - t0, ids: rows.map((r) => Number(r.id)) };
  };
  return options.role === 'app'
    ? asApp(pg, scope.user, work, options.settings)
    : asOwner(pg, work, options.settings);
}

export async function timedRuns(
  pg: PGlite,
  searchQuery: SearchQuery,
  scope: Scope,
  questions: Question[],
  mode: SearchMode,
  options: RunOptions,
): Promise<{ latency: Stats; ids: number[][] }> {
  for (let i = 0; i < Math.min(WARMUP, questions.length); i++) {
    await runOnce(pg, searchQuery, scope, questions[i]!, mode, options);
  }
  const samples: number[] = [];
  const ids: number[][] = [];
  for (const q of questions) {
    const r = await runOnce(pg, searchQuery, scope, q, mode, options);
    samples.push(r.ms);
    ids.push(r.ids);
  }
  return { latency: stats(samples), ids };
}

export interface Recall {
  /** Share of the exact top-10 ids returned. */
  ids: number;
  /** The same, also counting a result whose true distance ties the exact 10th. */
  ties_ok: number;
  /** Worst single question (ties ok). */
  worst: number;
  /** Questions that returned fewer rows than the exact search. */
  short_results: number;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** recall@10 of vector-mode results against exact neighbours computed in JS (same filter). */
export function vectorRecall(
  got: number[][],
  exact: Neighbour[][],
  rows: readonly Sparse[],
  questions: readonly Question[],
): Recall {
  let strict = 0;
  let tolerant = 0;
  let total = 0;
  let short = 0;
  let worst = 1;
  got.forEach((ids, q) => {
    const truth = exact[q]!.slice(0, TOP);
    const want = new Set(truth.map((n) => n.id));
    const kth = truth.at(-1)?.distance ?? Infinity;
    total += truth.length;
    if (ids.length < truth.length) short++;
    let counted = 0;
    for (const id of ids.slice(0, TOP)) {
      if (want.has(id)) strict++;
      if (counted < truth.length && distance(rows[id - 1]!, questions[q]!.unit) <= kth + EPS) {
        counted++;
      }
    }
    tolerant += counted;
    if (truth.length) worst = Math.min(worst, counted / truth.length);
  });
  return {
    ids: round4(total ? strict / total : 1),
    ties_ok: round4(total ? tolerant / total : 1),
    worst: round4(worst),
    short_results: short,
  };
}

/** Share of the reference lists' ids that the measured lists also hold (top 10). */
export function overlap(got: number[][], reference: number[][]): number {
  let same = 0;
  let total = 0;
  got.forEach((ids, q) => {
    const want = new Set(reference[q]!.slice(0, TOP));
    total += want.size;
    for (const id of ids.slice(0, TOP)) if (want.has(id)) same++;
  });
  return round4(total ? same / total : 1);
}

export interface PlanShape {
  /** The vector list read the HNSW index. */
  hnsw: boolean;
  /** Rows the HNSW index scan handed up that a filter (policy, ready, explicit) removed. */
  hnsw_removed_by_filter: number | null;
  /** How the keyword list found its chunks: the GIN index (bitmap) or a scan of every chunk. */
  keyword: 'gin bitmap' | 'seq scan' | 'none' | 'other';
  /** Seq scans of chunks in the plan (per loop counted once) and their loops in total. */
  chunk_seq_scans: number;
  chunk_seq_scan_loops: number;
  /**
   * How the statement's last join (`join chunks on chunks.id = fused.id`) finds its 10 rows: by
   * the primary key, or by reading every chunk the caller can see into a hash (what happens
   * under RLS: the join key is a COALESCE, which is not leakproof, so it cannot become an index
   * condition below the policy's filter).
   */
  final_join: 'pk index' | 'hash over visible chunks' | 'other';
  /** The btree on collection_id (an option) was used. */
  collection_btree: boolean;
  shared_hit: number | null;
  shared_read: number | null;
  execution_ms: number | null;
  summary: string;
}

export async function explainAnalyze(
  pg: PGlite,
  searchQuery: SearchQuery,
  scope: Scope,
  q: Question,
  mode: SearchMode,
  options: RunOptions,
): Promise<{ shape: PlanShape; plan: string }> {
  const filter = options.role === 'owner' || options.explicitFilter ? scope.collections : undefined;
  const built = statement(searchQuery, q, mode, filter);
  const values = built.values;
  const text = options.rewrite ? options.rewrite(built.text) : built.text;
  const work = async (tx: Tx) => {
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
      values,
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };
  const plan =
    options.role === 'app'
      ? await asApp(pg, scope.user, work, options.settings)
      : await asOwner(pg, work, options.settings);
  return { shape: planShape(plan, mode), plan };
}

export function planShape(plan: string, mode: SearchMode): PlanShape {
  const lines = plan.split('\n');
  const hnswAt = lines.findIndex((l) => /Index Scan using \S*hnsw\S*/.test(l));
  let removed: number | null = null;
  if (hnswAt >= 0) {
    const indent = lines[hnswAt]!.search(/\S/);
    for (let i = hnswAt + 1; i < lines.length; i++) {
      const line = lines[i]!;
      const at = line.search(/\S/);
      if (at <= indent || line.trimStart().startsWith('->')) break;
      const m = /Rows Removed by Filter: (\d+)/.exec(line);
      if (m) removed = Number(m[1]);
    }
  }
  const seqLines = lines.filter((l) => /Seq Scan on chunks/.test(l));
  const loops = seqLines.reduce((sum, l) => sum + Number(/loops=(\d+)/.exec(l)?.[1] ?? 1), 0);
  const gin = lines.some((l) => /Bitmap Index Scan on chunks_search_terms_idx/.test(l));
  const keyword: PlanShape['keyword'] =
    mode === 'vector' ? 'none' : gin ? 'gin bitmap' : seqLines.length ? 'seq scan' : 'other';
  const buffers = /Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(plan);
  const execution = /Execution Time: ([\d.]+) ms/.exec(plan);
  const collectionBtree = /chunks_collection_id_idx/.test(plan);
  const finalJoin: PlanShape['final_join'] = /Hash Cond: \(chunks\.id = /.test(plan)
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
