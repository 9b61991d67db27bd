// The tables the index-design bench prints (everything also goes to the JSON file).
import { table } from '../table.ts';
import type { InsertResult } from './inserts.ts';
import type { SettingResult } from './queries.ts';

export interface VariantResult {
  name: string;
  summary: string;
  column: string;
  index_ddl: string | null;
  dimensions: number;
  space: string;
  base_rows: number;
  /** Loading the base rows (binary COPY) before any vector index exists. */
  bulk_load_rows_per_s: number;
  build_s: number | null;
  index_bytes: number | null;
  /** NOTICEs of the build (e.g. the graph no longer fitting maintenance_work_mem). */
  build_notices: string[];
  table_bytes: { heap: number; toast: number };
  /** Share of the exact top-10 at these dimensions that is also in the 1536-dim exact top-10. */
  exact_overlap_with_1536: number;
  queries: SettingResult[];
  inserts: InsertResult[];
  /** The machine's 1-minute load average before and after this design (2 cores, shared). */
  load_average_1m?: [number, number];
}

/** The recall the target is stated in: the "ties ok" recall of unfiltered queries. */
export const TARGET_RECALL = 0.99;

const mib = (b: number | null) => (b === null ? '—' : (b / 2 ** 20).toFixed(1));
const ms = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(1));
const r3 = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(3));

export function insertRate(v: VariantResult, batch: number, order: string, pass = 1) {
  return v.inserts.find((i) => i.batch === batch && i.order === order && i.pass === pass)
    ?.rows_per_s;
}

/**
 * Milliseconds of index maintenance per inserted row: the design's time per row minus that of
 * the same vectors with no index (batches of 100, document order). Rotated vectors are dense:
 * PGlite spends ~10 ms per row just taking in their ~18 KB of text, with or without an index.
 */
export function indexMsPerRow(v: VariantResult, all: VariantResult[]): number | undefined {
  const reference = all.find((r) => !r.index_ddl && r.space === v.space);
  const rate = insertRate(v, 100, 'sorted');
  const floor = reference && insertRate(reference, 100, 'sorted');
  if (!v.index_ddl || !rate || !floor) return undefined;
  return Math.max(0, 1000 / rate - 1000 / floor);
}

/** The cheapest setting (first in the sweep) whose served recall reaches the target. */
export function firstMeetingTarget(v: VariantResult): SettingResult | undefined {
  return v.queries.find((q) => q.unfiltered.recall.ties_ok >= TARGET_RECALL);
}

export function summaryTable(results: VariantResult[]): string {
  const baseline = results.find((r) => r.name === 'vector-1536');
  const baseRate = baseline && insertRate(baseline, 100, 'sorted');
  return table(
    [
      'design',
      'build s',
      'index MiB',
      'insert rows/s',
      'vs today',
      'index ms/row',
      `setting for ≥ ${TARGET_RECALL}`,
      'p50 ms',
      'p95 ms',
      'recall@10',
      'exact ids',
    ],
    results.map((v) => {
      const rate = insertRate(v, 100, 'sorted');
      const ok = firstMeetingTarget(v);
      return [
        v.name,
        v.build_s === null ? '—' : v.build_s.toFixed(1),
        mib(v.index_bytes),
        rate === undefined ? '—' : rate.toFixed(0),
        rate && baseRate ? `${(rate / baseRate).toFixed(1)}×` : '—',
        ms(indexMsPerRow(v, results)),
        ok ? ok.setting : 'none',
        ms(ok?.unfiltered.latency.median_ms),
        ms(ok?.unfiltered.latency.p95_ms),
        r3(ok?.unfiltered.recall.ties_ok),
        r3(ok?.unfiltered.recall.ids),
      ];
    }),
  );
}

export function queryTable(results: VariantResult[]): string {
  return table(
    [
      'design',
      'setting',
      'plan',
      'n',
      'p50 ms',
      'p95 ms',
      'recall@10',
      'exact ids',
      'filtered plan',
      'f. p50 ms',
      'f. p95 ms',
      'f. recall',
      'f. short',
    ],
    results.flatMap((v) =>
      v.queries.map((q) => [
        v.name,
        q.setting,
        q.unfiltered.plan,
        String(q.unfiltered.latency.n),
        ms(q.unfiltered.latency.median_ms),
        ms(q.unfiltered.latency.p95_ms),
        r3(q.unfiltered.recall.ties_ok),
        r3(q.unfiltered.recall.ids),
        q.filtered?.plan ?? '—',
        ms(q.filtered?.latency.median_ms),
        ms(q.filtered?.latency.p95_ms),
        r3(q.filtered?.recall.ties_ok),
        String(q.filtered?.recall.short_results ?? '—'),
      ]),
    ),
  );
}

export function insertTable(results: VariantResult[]): string {
  const columns: [number, string, number][] = [
    [100, 'sorted', 1],
    [100, 'random', 1],
    [500, 'sorted', 1],
    [1000, 'sorted', 1],
    [1000, 'random', 1],
    [100, 'sorted', 2],
  ];
  return table(
    [
      'design (rows/s)',
      'bulk COPY',
      ...columns.map(([b, o, p]) => `${b} ${o}${p === 2 ? ' again' : ''}`),
      'rows per run',
    ],
    results.map((v) => [
      v.name,
      v.bulk_load_rows_per_s.toFixed(0),
      ...columns.map(([b, o, p]) => {
        const rate = insertRate(v, b, o, p);
        return rate === undefined ? '—' : rate.toFixed(0);
      }),
      v.inserts.length
        ? `${Math.min(...v.inserts.map((i) => i.rows))}–${Math.max(...v.inserts.map((i) => i.rows))}`
        : '—',
    ]),
  );
}

export function dimensionsNote(results: VariantResult[]): string {
  return results
    .filter((v) => v.dimensions !== 1536)
    .map(
      (v) =>
        `${v.name}: ${(v.exact_overlap_with_1536 * 100).toFixed(1)}% of its exact top-10 is in the ` +
        '1536-dim exact top-10 (the offline model hashes into dimensions − 2 buckets: fewer ' +
        'dimensions, more shared buckets)',
    )
    .join('\n');
}
