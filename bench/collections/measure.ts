// Timed runs of the query route's statement (workers/knowledge/src/store/search.ts searchQuery)
// as the app role under row-level security or as the owner with an explicit collection filter,
// and how close their top 10 come to exact search (recall@10) or to another run (agreement).
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { PgDialect } from 'drizzle-orm/pg-core';
import { loadKnowledgeStore, type SearchMode, type SearchQuery } from '../nearest-chunks-query.ts';
import { distance, type Neighbour, type Sparse } from '../index-design/vectors.ts';
import { stats, type Stats } from '../stats.ts';
import { asApp, asOwner, type BenchUser } from './setup.ts';

const { smallScopeQuery } = await loadKnowledgeStore();

export const TOP = 10;
const EPS = 1e-6;
const WARMUP = 3;

export type Tx = Pick<PGlite, 'query' | 'exec'>;

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

const dialect = new PgDialect();

export function statement(
  searchQuery: SearchQuery,
  q: Question,
  mode: SearchMode,
  collectionIds?: string[],
  readableFileIds?: string[],
): { text: string; values: unknown[] } {
  const query = searchQuery({
    mode,
    top: TOP,
    vector: q.vector,
    terms: q.terms,
    ...(collectionIds ? { collectionIds } : {}),
    ...(readableFileIds ? { readableFileIds } : {}),
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
  /**
   * As the app, without the readable files the route sends for the vector list when they are a
   * small scope (handlers/query.ts): row-level security alone decides, as before.
   */
  policyAlone?: boolean;
}

/** As the query route looks them up (handlers/collection-access.ts smallReadableScope). */
async function smallReadableScope(tx: Tx): Promise<string[] | undefined> {
  const { sql, params } = dialect.sqlToQuery(smallScopeQuery());
  const { rows } = await tx.query<{ ids: string[] | null }>(sql, params);
  return rows[0]?.ids ?? undefined;
}

/**
 * Runs `work` with the statement built for these options, in the role's transaction: the app
 * role passes what the route passes for a question without filters (the files the user can
 * read, looked up under the policy, for the vector list when they are a small scope) unless
 * asked otherwise; the owner always passes the user's collections (the route's explicit filter,
 * without policies: the floor).
 */
export function inRole<T>(
  pg: PGlite,
  searchQuery: SearchQuery,
  scope: Scope,
  q: Question,
  mode: SearchMode,
  options: RunOptions,
  work: (tx: Tx, text: string, values: unknown[]) => Promise<T>,
): Promise<T> {
  const filter = options.role === 'owner' || options.explicitFilter ? scope.collections : undefined;
  const run = async (tx: Tx) => {
    const readable =
      options.role === 'app' && !filter && !options.policyAlone
        ? await smallReadableScope(tx)
        : undefined;
    const { text, values } = statement(searchQuery, q, mode, filter, readable);
    return work(tx, text, values);
  };
  return options.role === 'app'
    ? asApp(pg, scope.user, run, options.settings)
    : asOwner(pg, scope.user, run, options.settings);
}

export function runOnce(
  pg: PGlite,
  searchQuery: SearchQuery,
  scope: Scope,
  q: Question,
  mode: SearchMode,
  options: RunOptions,
): Promise<{ ms: number; ids: number[] }> {
  return inRole(pg, searchQuery, scope, q, mode, options, async (tx, text, values) => {
    const t0 = performance.now();
    const { rows } = await tx.query<{ id: string | number }>(text, values);
    return { ms: performance.now() - t0, ids: rows.map((r) => Number(r.id)) };
  });
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
