// Query latency and recall@10 of one variant at one setting, as the service would serve it:
// the planner's own choice under the served settings, the real statement shape, and the same
// questions for every variant.
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { stats, type Stats } from '../stats.ts';
import { servedSettings } from './database.ts';
import type { VectorSet, Workload } from './vector-sets.ts';
import { distance, type Neighbour } from './vectors.ts';
import { TOP, type QuerySetting, type Variant } from './variants.ts';

/** Distances closer than this are the same value (float32 storage, text round trips). */
const EPS = 1e-6;
const WARMUP = 5;

export interface Recall {
  /** Share of the exact top-10 ids returned. */
  ids: number;
  /** The same, also counting a result whose true distance ties the exact 10th. */
  ties_ok: number;
  /**
   * Context, not the target: the share counting also results within 0.001 (similarity) of the
   * exact 10th. The offline model's neighbours are nearly tied, and most misses are that close.
   */
  within_0_001: number;
  /** The nearest chunk (or one tied with it) came first. */
  at_1: number;
  /** Queries that returned fewer than the exact search (or fewer than TOP). */
  short_results: number;
}

export interface QueryMeasurement {
  plan: string;
  latency: Stats;
  recall: Recall;
}

export interface SettingResult {
  setting: string;
  ef_search: number;
  candidates?: number;
  unfiltered: QueryMeasurement;
  filtered?: QueryMeasurement;
}

export function recallOf(
  got: number[][],
  exact: Neighbour[][],
  set: VectorSet,
  queryOffset = 0,
): Recall {
  let strict = 0;
  let tolerant = 0;
  let near = 0;
  let total = 0;
  let first = 0;
  let short = 0;
  got.forEach((ids, q) => {
    const truth = exact[q]!.slice(0, TOP);
    const query = set.queries[q + queryOffset]!;
    const want = new Set(truth.map((n) => n.id));
    const kth = truth.at(-1)?.distance ?? Infinity;
    total += truth.length;
    if (ids.length < truth.length) short++;
    let counted = 0;
    let close = 0;
    for (const id of ids) {
      if (want.has(id)) strict++;
      const d = distance(set.rows[id - 1]!, query);
      if (counted < truth.length && d <= kth + EPS) counted++;
      if (close < truth.length && d <= kth + 1e-3) close++;
    }
    tolerant += counted;
    near += close;
    const best = truth[0]?.distance;
    if (best === undefined || (ids[0] && distance(set.rows[ids[0] - 1]!, query) <= best + EPS)) {
      first++;
    }
  });
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    ids: round(total ? strict / total : 1),
    ties_ok: round(total ? tolerant / total : 1),
    within_0_001: round(total ? near / total : 1),
    at_1: round(first / got.length),
    short_results: short,
  };
}

function planOf(explained: string, variant: Variant): string {
  if (variant.index && explained.includes(variant.index.name)) return 'index';
  if (explained.includes('chunks_file_id_idx')) return 'file_id btree + sort (exact)';
  return 'seq scan (exact)';
}

async function explain(pg: PGlite, sql: string, params: unknown[]): Promise<string> {
  const { rows } = await pg.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

async function timed(
  pg: PGlite,
  sql: string,
  paramsOf: (i: number) => unknown[],
  count: number,
): Promise<{ latency: Stats; ids: number[][] }> {
  for (let i = 0; i < Math.min(WARMUP, count); i++) await pg.query(sql, paramsOf(i));
  const samples: number[] = [];
  const ids: number[][] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const { rows } = await pg.query<{ id: string | number }>(sql, paramsOf(i));
    samples.push(performance.now() - t0);
    ids.push(rows.map((r) => Number(r.id)));
  }
  return { latency: stats(samples), ids };
}

export interface QueryCounts {
  unfiltered: number;
  filtered: number;
  /** Queries measured when the plan is a full scan (slow: a sample is enough). */
  scanSample: number;
}

export async function measureSetting(
  pg: PGlite,
  variant: Variant,
  setting: QuerySetting,
  set: VectorSet,
  workload: Workload,
  fileIds: string[],
  counts: QueryCounts,
): Promise<SettingResult> {
  await servedSettings(pg, setting.efSearch, setting.probes);
  const unfilteredSql = variant.statement(setting, false);
  const plan = planOf(await explain(pg, unfilteredSql, [set.queryLiterals[0]]), variant);
  const n = plan === 'index' ? counts.unfiltered : Math.min(counts.scanSample, counts.unfiltered);
  const all = await timed(pg, unfilteredSql, (i) => [set.queryLiterals[i]], n);
  const result: SettingResult = {
    setting: setting.label,
    ef_search: setting.efSearch,
    ...(setting.candidates ? { candidates: setting.candidates } : {}),
    unfiltered: { plan, latency: all.latency, recall: recallOf(all.ids, set.exact, set) },
  };
  if (counts.filtered > 0) {
    const filteredSql = variant.statement(setting, true);
    const filterIds = workload.filterDocs.map((docs) => [...docs].map((d) => fileIds[d]!));
    const params = (i: number) => [set.queryLiterals[i], filterIds[i]];
    const filteredPlan = planOf(await explain(pg, filteredSql, params(0)), variant);
    const m = Math.min(counts.filtered, workload.filterDocs.length);
    const some = await timed(pg, filteredSql, params, m);
    result.filtered = {
      plan: filteredPlan,
      latency: some.latency,
      recall: recallOf(some.ids, set.exactFiltered, set),
    };
  }
  return result;
}
