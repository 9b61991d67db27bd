// npm run bench:reindex (issue 34, "Measured"): a re-index of 10,000 chunks made by another
// embedding model. Starts an isolated local stack (the offline model endpoint, a real HTTP
// server speaking OpenAI's protocol), seeds the chunks straight into its database
// (bench/paths/seed-chunks.ts) and stamps them with another model, then:
// - GET /moduleknowledge/embedding_status: p50/p95 (one grouped count over the collection);
// - the floor: the same embedding requests the re-index makes (REINDEX_BATCH_CHUNKS texts
//   each, in their index form), one after another with nothing in between: the endpoint's pace;
// - hybrid queries, one after another: p50/p95 idle, then during POST /moduleknowledge/reindex
//   until its job is done; the job's chunks/s against the floor's.
// Target: query p95 during the re-index ≤ 1.5× idle. Results: bench-results/reindex.json.
//
// With --total, more chunks are seeded (of the configured model but those --chunks): the status
// at 100,000 chunks is `--total 100000`.
//
//   node bench/reindex.ts [--chunks 10000] [--total N] [--pause-ms 100] [--batch 100] [--samples 50]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { configuredEmbeddingModel } from '../dev/stack/embedding-model.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../dev/stack/seed.ts';
import { devDatabaseSettings } from './eval/exact-search.ts';
import { loadKnowledgeStore } from './nearest-chunks-query.ts';
import { claimOf } from './paths/database-floors.ts';
import { seedChunks } from './paths/seed-chunks.ts';
import { login } from './paths/service-calls.ts';
import { stats, type Stats } from './stats.ts';
import { table } from './table.ts';

const SHARED = '00000000-0000-0000-0000-000000000000';
const OLD_MODEL = 'old-model@1536';
const P95_RATIO_TARGET = 1.5;
const WARMUP = 5;

const { values: args } = parseArgs({
  options: {
    chunks: { type: 'string', default: '10000' },
    total: { type: 'string' },
    'pause-ms': { type: 'string', default: '100' },
    batch: { type: 'string', default: '100' },
    samples: { type: 'string', default: '50' },
  },
});
const CHUNKS = Number(args.chunks);
const TOTAL = Math.max(CHUNKS, Number(args.total ?? CHUNKS));
const CHUNKS_PER_FILE = 50;
const PAUSE_MS = Number(args['pause-ms']);
const BATCH = Number(args.batch);
const SAMPLES = Number(args.samples);

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.error(`reindex: ${message}`);
const round = (x: number) => Math.round(x * 100) / 100;

interface Job {
  id: string;
  status: 'running' | 'done' | 'failed';
  chunks: number;
  chunks_done: number;
  files: number;
  error: unknown;
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'kbchat-bench-reindex-'));
log(`starting an isolated stack (data in ${dataDir})`);
const dev = await launchDev({
  dataDir,
  env: {
    LOG_LEVEL: 'warn',
    OCR: 'off',
    KBCHAT_VAR_REINDEX_PAUSE_MS: String(PAUSE_MS),
    KBCHAT_VAR_REINDEX_BATCH_CHUNKS: String(BATCH),
  },
});
let failed = false;
const db = new pg.Client({ connectionString: (await devDatabaseSettings(dataDir)).url });
try {
  await db.connect();
  const token = await login(dev.baseUrl, LOCAL_ADMIN.username, LOCAL_ADMIN.password);
  const claim = await claimOf(db, LOCAL_ADMIN.username);
  log(`seeding ${TOTAL} chunks, ${CHUNKS} of them of another model`);
  const seeded = await seedChunks(db, {
    chunks: TOTAL,
    chunksPerFile: CHUNKS_PER_FILE,
    uploader: { id: claim.userId, username: LOCAL_ADMIN.username },
  });
  const staleFiles = seeded.fileIds.slice(0, Math.ceil(CHUNKS / CHUNKS_PER_FILE));
  await db.query(`update chunks set embedding_model = $1 where file_id = any($2::uuid[])`, [
    OLD_MODEL,
    staleFiles,
  ]);
  await db.query('analyze chunks');

  const status = await timedCalls(SAMPLES, () =>
    call(dev.baseUrl, token, `/moduleknowledge/embedding_status?collection_id=${SHARED}`),
  );
  const stale = (status.last as { stale_chunks: number }).stale_chunks;
  if (stale < CHUNKS) throw new Error(`embedding_status reports ${stale} stale chunks`);

  // The floor: the re-index's own embedding requests, back to back.
  await loadKnowledgeStore(); // registers the resolve hooks workers/ needs
  const { normaliseForIndex } = (await import(
    pathToFileURL(path.join(root, 'workers/knowledge/src/ingest/normalise-for-index.ts')).href
  )) as { normaliseForIndex(text: string): string };
  const modelUrl = `${dev.modelControlUrl.replace(/\/_control$/, '')}/v1/embeddings`;
  // The model the stack embeds with (`name@dimensions`), as its workers are configured.
  const model = configuredEmbeddingModel(process.env);
  const [modelName, dimensions] = model.split('@') as [string, string];
  const texts = seeded.chunks
    .slice(0, staleFiles.length * CHUNKS_PER_FILE)
    .map((chunk) => normaliseForIndex(chunk.content));
  log(`the floor: ${texts.length} texts in requests of ${BATCH}`);
  const f0 = performance.now();
  for (let start = 0; start < texts.length; start += BATCH) {
    const res = await fetch(modelUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: modelName,
        dimensions: Number(dimensions),
        input: texts.slice(start, start + BATCH),
      }),
    });
    if (!res.ok) throw new Error(`embeddings: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  const floorSeconds = (performance.now() - f0) / 1000;

  const words = seeded.words;
  const ask = (i: number) =>
    call(
      dev.baseUrl,
      token,
      `/moduleknowledge/query?${new URLSearchParams({ text: `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]}`, mode: 'hybrid', top: '5' })}`,
    );
  log(`queries while idle (${SAMPLES})`);
  const idle = (await timedCalls(SAMPLES, ask)).stats;

  log('re-index, with queries one after another until it is done');
  const r0 = performance.now();
  let job = (await call(dev.baseUrl, token, '/moduleknowledge/reindex', 'POST', {
    collection_id: SHARED,
  })) as Job;
  const during: number[] = [];
  let i = 0;
  while (job.status === 'running') {
    const t0 = performance.now();
    await ask(i++);
    during.push(performance.now() - t0);
    if (i % 5 === 0) {
      job = (await call(dev.baseUrl, token, `/moduleknowledge/reindex?id=${job.id}`)) as Job;
    }
    if (performance.now() - r0 > 30 * 60_000) throw new Error('the re-index took over 30 min');
  }
  const reindexSeconds = (performance.now() - r0) / 1000;
  if (job.status !== 'done') throw new Error(`the re-index ended ${JSON.stringify(job)}`);
  const { rows: left } = await db.query<{ n: number }>(
    'select count(*)::int as n from chunks where embedding_model is distinct from $1',
    [model],
  );
  const duringStats = stats(during);
  const ratio = duringStats.p95_ms / idle.p95_ms;

  const results = {
    seeded_chunks: seeded.chunks.length,
    chunks: job.chunks,
    files: job.files,
    left_stale: left[0]!.n,
    settings: { batch_chunks: BATCH, pause_ms: PAUSE_MS },
    embedding_status: status.stats,
    floor: { seconds: round(floorSeconds), chunks_per_s: round(job.chunks / floorSeconds) },
    reindex: { seconds: round(reindexSeconds), chunks_per_s: round(job.chunks / reindexSeconds) },
    query_idle: idle,
    query_during: duringStats,
    p95_ratio: round(ratio),
    met: ratio <= P95_RATIO_TARGET,
  };
  await mkdir(path.join(root, 'bench-results'), { recursive: true });
  await writeFile(
    path.join(root, 'bench-results/reindex.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  const ms = (s: Stats) => [s.median_ms.toFixed(1), s.p95_ms.toFixed(1), String(s.n)];
  console.log(
    `reindex: ${job.chunks} of ${seeded.chunks.length} chunks in ${job.files} files, batches of ${BATCH}, pause ${PAUSE_MS} ms; ` +
      `${results.left_stale} left of another model\n` +
      table(
        ['', 'seconds', 'chunks/s'],
        [
          ['embedding endpoint alone (floor)', results.floor.seconds, results.floor.chunks_per_s],
          ['re-index (POST to done)', results.reindex.seconds, results.reindex.chunks_per_s],
        ].map((row) => row.map(String)),
      ) +
      '\n' +
      table(
        ['', 'p50 ms', 'p95 ms', 'n'],
        [
          [`GET embedding_status (${seeded.chunks.length} chunks)`, ...ms(status.stats)],
          ['query (hybrid), idle', ...ms(idle)],
          ['query (hybrid), during re-index', ...ms(duringStats)],
        ],
      ) +
      `\nreindex: query p95 during / idle = ${results.p95_ratio} (target ≤ ${P95_RATIO_TARGET}: ${results.met ? 'met' : 'NOT met'})`,
  );
} catch (err) {
  failed = true;
  log(`failed; the stack's log is kept: ${dev.logFile}`);
  throw err;
} finally {
  await db.end().catch(() => undefined);
  await dev.stop();
  if (!failed) await rm(dataDir, { recursive: true, force: true });
}

async function timedCalls(n: number, work: (i: number) => Promise<unknown>) {
  const samples: number[] = [];
  let last: unknown;
  for (let i = 0; i < WARMUP + n; i++) {
    const t0 = performance.now();
    last = await work(i);
    if (i >= WARMUP) samples.push(performance.now() - t0);
  }
  return { stats: stats(samples), last };
}

async function call(base: string, token: string, route: string, method = 'GET', body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return (JSON.parse(text) as { data: unknown }).data;
}
