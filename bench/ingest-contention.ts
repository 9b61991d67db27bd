// How long an interactive request waits behind an ingest on the local database, and what
// pacing the ingest's inserts costs it.
//
//   npm run bench:contention            (node bench/run.ts contention)
//
// The local database serves one session at a time; inserting a chunk into the HNSW index takes
// a few milliseconds, so a step's inserts in one transaction made everyone else wait about a
// second. A chunk step now inserts in transactions that each hold the database for about
// INGEST_INSERT_HOLD_MS (paced-inserts.ts), 20 ms on the local database. Two runs, each on a
// fresh `npm run dev` stack: INGEST_INSERT_HOLD_MS=0 (a step's inserts in one transaction, as
// before, and still the default for a Postgres server) and 20.
// In each: GET /moduleauth/me timed one call after another with nothing else running (its
// floor); a 300-page PDF ingested alone (uploaded without waiting, followed until ready: the
// ingest's own time, whose difference between the runs is what pacing costs it); and another
// 300-page PDF ingested while /me is called one call after another (how long /me waits, and how
// much the ingest slows when it lets /me in). Results in bench-results/contention.json.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeTextPdf, manyPagesText } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { login } from './client.ts';
import { stats, type Stats } from './stats.ts';
import { table } from './table.ts';

const PAGES = 300;
const IDLE_CALLS = 100;
/** One transaction per step (the default, for Postgres servers), and what `npm run dev` sets. */
const HOLDS_MS = [0, 20] as const;

export interface Contention {
  holdMs: number;
  pages: number;
  chunks: number;
  /** The ingest with nothing else running. */
  ingestAloneSeconds: number;
  /** The ingest while /me is called one call after another. */
  ingestUnderLoadSeconds: number;
  meIdle: Stats;
  meDuringIngest: Stats;
}

export async function measureContention(out: string): Promise<Contention[]> {
  const runs: Contention[] = [];
  for (const holdMs of HOLDS_MS) runs.push(await measureOnce(holdMs));
  print(runs);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(runs, null, 2)}\n`);
  return runs;
}

async function measureOnce(holdMs: number): Promise<Contention> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-contention-'));
  const stack = await launchDev({
    dataDir,
    env: { KBCHAT_VAR_INGEST_INSERT_HOLD_MS: String(holdMs) },
  });
  try {
    const base = stack.baseUrl;
    const token = await login(base, 'admin', 'admin-password');
    const headers = { Authorization: `Bearer ${token}` };
    const me = () => timed(() => fetch(`${base}/moduleauth/me`, { headers }));

    const idle: number[] = [];
    for (let i = 0; i < IDLE_CALLS; i++) idle.push(await me());

    const alone = await ingest(base, headers, async (done) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const during: number[] = [];
    const loaded = await ingest(base, headers, async (done) => {
      while (!done()) during.push(await me());
    });
    return {
      holdMs,
      pages: PAGES,
      chunks: loaded.chunks,
      ingestAloneSeconds: alone.seconds,
      ingestUnderLoadSeconds: loaded.seconds,
      meIdle: stats(idle),
      meDuringIngest: stats(during),
    };
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * One 300-page PDF (new text, so deduplication never answers), uploaded without waiting and
 * followed until ready, while `meanwhile` runs until it is.
 */
async function ingest(
  base: string,
  headers: Record<string, string>,
  meanwhile: (done: () => boolean) => Promise<void>,
): Promise<{ seconds: number; chunks: number }> {
  const run = Math.random().toString(36).slice(2, 10);
  const pdf = makeTextPdf(
    manyPagesText(PAGES).map((text) => text.replace(/^Register page/, `Register ${run} page`)),
    { title: `Register ${run}` },
  );
  const form = new FormData();
  form.append('file', new File([pdf], `register-${run}.pdf`));
  const started = performance.now();
  const res = await fetch(`${base}/moduleknowledge/upload?async=true`, {
    method: 'POST',
    headers,
    body: form,
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const { id } = ((await res.json()) as { data: { id: string } }).data;
  let done: { chunks: number; at: number } | undefined;
  const follow = (async () => {
    while (!done) {
      const status = await fetch(`${base}/moduleknowledge/file_status?id=${id}`, { headers });
      const { data } = (await status.json()) as { data: { status: string; chunks: number } };
      if (data.status === 'failed') throw new Error(`the file failed: ${JSON.stringify(data)}`);
      if (data.status === 'ready') done = { chunks: data.chunks, at: performance.now() };
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await Promise.all([follow, meanwhile(() => done !== undefined)]);
  return { seconds: round((done!.at - started) / 1000), chunks: done!.chunks };
}

async function timed(call: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await call();
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/me answered ${res.status}`);
  return performance.now() - started;
}

function print(runs: Contention[]): void {
  console.log(`\n/me while a ${PAGES}-page PDF ingests, by INGEST_INSERT_HOLD_MS`);
  console.log(
    table(
      [
        'inserts',
        'ingest alone s',
        'under /me s',
        '/me idle p50',
        'idle p95',
        'during p50',
        'during p95',
        'during max',
        'calls',
      ],
      runs.map((r) => [
        r.holdMs === 0 ? 'one transaction per step (0)' : `about ${r.holdMs} ms each`,
        String(r.ingestAloneSeconds),
        String(r.ingestUnderLoadSeconds),
        ms(r.meIdle.median_ms),
        ms(r.meIdle.p95_ms),
        ms(r.meDuringIngest.median_ms),
        ms(r.meDuringIngest.p95_ms),
        ms(r.meDuringIngest.max_ms),
        String(r.meDuringIngest.n),
      ]),
    ),
  );
  const [floor, ...paced] = runs;
  for (const run of floor ? paced : []) {
    const cost = ((run.ingestAloneSeconds / floor!.ingestAloneSeconds - 1) * 100).toFixed(0);
    console.log(
      `the ingest alone: ${floor!.ingestAloneSeconds} s in one transaction per step, ` +
        `${run.ingestAloneSeconds} s at about ${run.holdMs} ms a transaction (${cost}%)`,
    );
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const round = (value: number) => Math.round(value * 10) / 10;
