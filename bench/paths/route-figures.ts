// What the report shows per route: its latency, its floor's, and what lies between.
import { stats, type Stats } from '../stats.ts';
import type { Samples } from './interleaved.ts';
import type { RoundTrips } from './round-trips.ts';

export interface RouteFigure {
  route: string;
  latency: Stats;
  floor: { what: string; latency: Stats; parts?: Record<string, Stats> };
  /** The route's own statements as the worker sends them, over the local HTTP /sql. */
  worker_sql?: { what: string; latency: Stats };
  /** Route p50 − floor p50 (both measured interleaved, in the same run). */
  overhead_p50_ms: number;
  /** The target, as text, and whether this run met it. */
  target: string;
  met: boolean;
  round_trips: RoundTrips;
}

/** Stats of every sample list that starts with `prefix.` (a step's reported parts). */
export function partsOf(samples: Samples, prefix: string): Record<string, Stats> {
  return Object.fromEntries(
    Object.entries(samples)
      .filter(([name]) => name.startsWith(`${prefix}.`))
      .map(([name, values]) => [name.slice(prefix.length + 1), stats(values)]),
  );
}

export const overP50 = (route: Stats, floor: Stats) =>
  Math.round((route.median_ms - floor.median_ms) * 1000) / 1000;
