/** Latency statistics, the same in every benchmark and load run (milliseconds). */
export interface Stats {
  n: number;
  median_ms: number;
  p95_ms: number;
  p99_ms: number;
  min_ms: number;
  max_ms: number;
  mean_ms: number;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) {
    return {
      n: 0,
      median_ms: NaN,
      p95_ms: NaN,
      p99_ms: NaN,
      min_ms: NaN,
      max_ms: NaN,
      mean_ms: NaN,
    };
  }
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return {
    n: sorted.length,
    median_ms: round(median),
    p95_ms: round(at(0.95)),
    p99_ms: round(at(0.99)),
    min_ms: round(sorted[0]!),
    max_ms: round(sorted[sorted.length - 1]!),
    mean_ms: round(sorted.reduce((sum, v) => sum + v, 0) / sorted.length),
  };
}
