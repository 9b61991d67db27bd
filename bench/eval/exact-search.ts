// Exact nearest neighbours from the isolated stack's own database, to measure what the HNSW
// index loses. The dev stack writes its database settings to <data dir>/owner.env (as the owner); Node reaches
// the database through the stack's local Neon proxy with the Neon driver, as the workers do.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { neonConfig } from '@neondatabase/serverless';
import { sql } from 'drizzle-orm';
import ws from 'ws';
import { openPool, type DatabaseSettings } from '#shared/db/database';
import { loadNearestChunksQuery } from '../nearest-chunks-query.ts';
import type { Neighbour } from './hnsw-recall.ts';

/**
 * The database as its owner (past row-level security): DATABASE_URL and DATABASE_PROXY from
 * the owner.env that `npm run dev` wrote beside the workers' dev.env.
 */
export function devDatabaseSettings(dataDir: string): Promise<DatabaseSettings> {
  return settingsFrom(path.join(dataDir, 'owner.env'));
}

/** The database as the workers reach it (their login, under row-level security): dev.env. */
export function workerDatabaseSettings(dataDir: string): Promise<DatabaseSettings> {
  return settingsFrom(path.join(dataDir, 'dev.env'));
}

async function settingsFrom(file: string): Promise<DatabaseSettings> {
  const text = await readFile(file, 'utf8');
  const env = new Map(
    text
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const url = env.get('KNOWLEDGE_DATABASE_URL') || env.get('DATABASE_URL');
  if (!url) throw new Error(`no DATABASE_URL in ${file}`);
  return { url, proxy: env.get('DATABASE_PROXY') || undefined };
}

const literal = (vector: readonly number[]) => `[${vector.join(',')}]`;

/**
 * The exact top `k` chunks for each vector: a full scan (index scans off, inside one
 * transaction so the setting stays local), ordered like the served query (distance, then id).
 */
export async function exactNeighbours(
  settings: DatabaseSettings,
  vectors: readonly number[][],
  k: number,
): Promise<Neighbour[][]> {
  neonConfig.webSocketConstructor = ws;
  const { db, close } = openPool(settings, {});
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_indexscan = off`);
      const lists: Neighbour[][] = [];
      for (const vector of vectors) {
        const { rows } = await tx.execute<{ id: string | number; similarity: string | number }>(sql`
          select id, 1 - (embedding <=> ${literal(vector)}::vector) as similarity
          from chunks
          order by embedding <=> ${literal(vector)}::vector, id
          limit ${k}`);
        lists.push(rows.map((r) => ({ id: Number(r.id), similarity: Number(r.similarity) })));
      }
      return lists;
    });
  } finally {
    await close();
  }
}

/**
 * The planner's choice for the knowledge worker's own statement (nearestChunksQuery) under the
 * settings it runs with (hnsw.ef_search, random_page_cost 1.1): on a small table the planner
 * scans everything, and then the served results are exact by construction.
 */
export async function servedPlan(
  settings: DatabaseSettings,
  vector: readonly number[],
  k: number,
  efSearch: number,
): Promise<string> {
  const nearestChunksQuery = await loadNearestChunksQuery();
  neonConfig.webSocketConstructor = ws;
  const { db, close } = openPool(settings, {});
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('hnsw.ef_search', ${String(efSearch)}, true)`);
      await tx.execute(sql`select set_config('random_page_cost', '1.1', true)`);
      const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(
        sql`explain ${nearestChunksQuery([...vector], { top: k })}`,
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      return /Index Scan using \S*hnsw\S*/.test(plan) ? 'hnsw index scan' : 'full scan (no index)';
    });
  } finally {
    await close();
  }
}

/** Embeddings from the stack's offline model endpoint, the model the knowledge worker uses. */
export async function embed(modelBase: string, texts: readonly string[]): Promise<number[][]> {
  const res = await fetch(`${modelBase}/v1/embeddings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    // The knowledge worker's defaults: EMBEDDING_MODEL and EMBEDDING_DIMENSIONS (1536, the
    // column width, so no padding is needed).
    body: JSON.stringify({
      model: 'text-embedding-3-small',
      input: texts,
      dimensions: 1536,
      encoding_format: 'float',
    }),
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`embeddings answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { data: { index: number; embedding: number[] }[] };
  return [...body.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
}
