// Insert throughput into a table that already has its index: what ingestion does. Every run
// starts from the same snapshot (the base rows and the built index), so runs do not feed each
// other's index; only the database calls are timed (the vector literals are made before).
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { rng } from '../corpus.ts';
import { insertChunks, openDatabase, type ChunkRow } from './database.ts';

export type InsertOrder = 'sorted' | 'random';

export interface InsertConfig {
  batch: number;
  /** 'sorted': each document's chunks in order, as one upload inserts them; 'random': shuffled. */
  order: InsertOrder;
}

export interface InsertResult extends InsertConfig {
  /** 1 for the first run of a configuration, 2 for its repeat (noise). */
  pass: number;
  rows: number;
  seconds: number;
  rows_per_s: number;
}

export const FULL_CONFIGS: InsertConfig[] = [
  { batch: 100, order: 'sorted' },
  { batch: 100, order: 'random' },
  { batch: 500, order: 'sorted' },
  { batch: 1000, order: 'sorted' },
  { batch: 1000, order: 'random' },
];
export const SHORT_CONFIGS: InsertConfig[] = FULL_CONFIGS.slice(0, 2);

export interface InsertPlan {
  configs: InsertConfig[];
  /** The new rows, in document order (ids after the base rows). */
  rows: number;
  row(i: number): ChunkRow;
  /** A configuration stops after this many rows or (at a whole batch) this many seconds. */
  maxRows: number;
  budgetSeconds: number;
  /** Runs the first configuration again at the end: how far apart two runs of one thing are. */
  repeatFirst: boolean;
}

function orderOf(plan: InsertPlan, order: InsertOrder): number[] {
  const ids = Array.from({ length: plan.rows }, (_, i) => i);
  if (order === 'sorted') return ids;
  const random = rng(4_242);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids;
}

async function runOne(
  snapshot: Blob,
  plan: InsertPlan,
  config: InsertConfig,
  pass: number,
): Promise<InsertResult> {
  const pg: PGlite = await openDatabase(snapshot);
  try {
    const order = orderOf(plan, config.order);
    let rows = 0;
    let busy = 0;
    while (rows < Math.min(plan.maxRows, plan.rows) && busy < plan.budgetSeconds * 1000) {
      const batch = order.slice(rows, rows + config.batch).map((i) => plan.row(i));
      const t0 = performance.now();
      await insertChunks(pg, batch);
      busy += performance.now() - t0;
      rows += batch.length;
    }
    const seconds = busy / 1000;
    return {
      ...config,
      pass,
      rows,
      seconds: Math.round(seconds * 100) / 100,
      rows_per_s: Math.round((rows / seconds) * 10) / 10,
    };
  } finally {
    await pg.close();
  }
}

/** The runs of a plan in order: each configuration once, then the first one again. */
export function insertRuns(plan: InsertPlan): { config: InsertConfig; pass: number }[] {
  const runs = plan.configs.map((config) => ({ config, pass: 1 }));
  if (plan.repeatFirst && plan.configs[0]) runs.push({ config: plan.configs[0], pass: 2 });
  return runs;
}

export const measureInsertRun = runOne;
