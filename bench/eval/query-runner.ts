// Asks every question in every mode the server honours, sequentially (one query at a time, so
// the latencies are the service's and the local database is not queued behind ourselves).
import { performance } from 'node:perf_hooks';
import { stats, type Stats } from '../stats.ts';
import {
  HttpError,
  queryKnowledge,
  type KnowledgeApi,
  type Mode,
  type ServedResult,
} from './knowledge-api.ts';
import { judgeModeSupport, type ModeProbe, type ModeSupport } from './mode-support.ts';
import type { EvalItem } from './scoring.ts';

/** Questions asked in every mode first, to see whether the server honours `mode`. */
const PROBE_QUESTIONS = 5;

export interface ModeRun {
  mode: Mode;
  support: ModeSupport;
  /** Per item, in item order; absent when the mode is not honoured. */
  results?: ServedResult[][];
  latency?: Stats;
}

export async function runModes(
  api: KnowledgeApi,
  items: readonly EvalItem[],
  modes: readonly Mode[],
  top: number,
  log: (message: string) => void,
): Promise<ModeRun[]> {
  const probeItems = items.slice(0, PROBE_QUESTIONS);
  const ask = (item: EvalItem, mode: Mode) =>
    queryKnowledge(api, { text: item.question, top, mode });
  const vectorProbes: ServedResult[][] = [];
  for (const item of probeItems) vectorProbes.push(await ask(item, 'vector'));

  const runs: ModeRun[] = [];
  for (const mode of modes) {
    let support: ModeSupport;
    try {
      const probes: ModeProbe[] = [];
      for (const [i, item] of probeItems.entries()) {
        probes.push({
          vector: vectorProbes[i]!,
          asked: mode === 'vector' ? vectorProbes[i]! : await ask(item, mode),
        });
      }
      support = judgeModeSupport(mode, probes);
    } catch (err) {
      // A server that validates `mode` and does not know this one.
      if (!(err instanceof HttpError) || err.status !== 400) throw err;
      support = { honoured: false, reason: `not supported by this server: ${err.message}` };
    }
    log(`mode ${mode}: ${support.honoured ? 'honoured' : 'NOT honoured'} (${support.reason})`);
    if (!support.honoured) {
      runs.push({ mode, support });
      continue;
    }
    const results: ServedResult[][] = [];
    const samples: number[] = [];
    for (const item of items) {
      const t0 = performance.now();
      results.push(await ask(item, mode));
      samples.push(performance.now() - t0);
    }
    const latency = stats(samples);
    log(`mode ${mode}: ${items.length} queries, median ${latency.median_ms.toFixed(0)} ms`);
    runs.push({ mode, support, results, latency });
  }
  return runs;
}
