// Timing of a route next to its floor on a machine other work shares: every iteration runs
// each step once, in an order that rotates, so that route and floor see the same load and
// neither always runs right after the other.
import { performance } from 'node:perf_hooks';

/** A step may report the times of its own parts (e.g. embedding, statement), in ms. */
export type Step = (iteration: number) => Promise<void | Record<string, number>>;

/** Milliseconds per step (and `step.part` per reported part), one sample per iteration. */
export type Samples = Record<string, number[]>;

export async function interleaved(
  iterations: number,
  warmup: number,
  steps: Record<string, Step>,
): Promise<Samples> {
  const names = Object.keys(steps);
  const samples: Samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = -warmup; i < iterations; i++) {
    const shift = ((i % names.length) + names.length) % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
      const started = performance.now();
      const parts = await steps[name]!(i);
      const ms = performance.now() - started;
      if (i < 0) continue; // warm-up: connections, isolates, caches
      samples[name]!.push(ms);
      for (const [part, partMs] of Object.entries(parts ?? {})) {
        (samples[`${name}.${part}`] ??= []).push(partMs);
      }
    }
  }
  return samples;
}

/** Runs `work` and returns its duration in ms with its value. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}
