// Knowledge benchmark: ingestion end to end over HTTP, pgvector queries at scale, and every
// request path next to its floor.
//
//   npm run bench                      # every section (today: ingest, query, paths)
//   npm run bench:ingest               # ingest, its memory and CPU budget, the reader's memory
//                                      # on the worst documents of each format, and query
//   npm run bench:paths                # paths only
//   node bench/run.ts scan             # scans through the stack and OCR (part of bench:ocr)
//   npm run bench:contention           # /me while a 300-page PDF ingests, paced or not
//   node bench/run.ts query            # one section; output in bench-results/ingest.json
//
// ingest  starts an isolated local stack (`node dev/dev.ts` on a free loopback port, a fresh
//         KBCHAT_DATA_DIR in the temp folder, the offline model), logs in as the seeded admin
//         (ADMIN_USERNAME / ADMIN_PASSWORD, defaults admin / admin-password), uploads a generated
//         50-page and 200-page PDF (new text every run, so deduplication never answers) and
//         reads the embedding calls of each upload from the offline model's control API. The
//         stack is stopped with SIGINT at the end and on any error.
// query   in this process: PGlite + pgvector in memory, the repo's migrations, ≥ 10,000 chunks
//         embedded with the offline model's lexical embeddings, HNSW build times and sizes, and
//         the latency and recall@10 (against exact search) of the knowledge worker's own
//         `nearestChunksQuery` at hnsw.ef_search 40 and 100. Where the planner prefers a
//         sequential scan, that is measured on a sample and the index again with
//         enable_seqscan off. (The halfvec comparison that ran here is a decision now:
//         docs/decisions/.)
// paths   bench/request-paths.ts: an isolated stack with ≥ 10,000 seeded chunks; query, list,
//         /me, login and chat timed next to their floors (the same work with nothing in
//         between), their database round trips counted at the local proxy, and /me while a
//         500-page PDF ingests. Output in bench-results/request-paths.json.
//
// Options: --rows 10000, --queries 200 (smaller only for smoke tests: marked undersized),
// --out bench-results/ingest.json; for paths: --path-chunks 10000, --path-samples 100,
// --chat-samples 40, --ingest-pages 500, --paths-out bench-results/request-paths.json.
// Everything talks to loopback only; every request has a timeout and the whole run a deadline.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { makeTextPdf, manyPagesText } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../dev/stack/seed.ts';
import { CONSTANT_WEIGHT, embedText } from '../dev/stack/offline-model/lexical.ts';
import { makeCorpus, makeQuestions } from './corpus.ts';
import { stats, type Stats } from './stats.ts';
import { chinesePolicyScan } from '../dev/fixtures/scanned-pdfs.ts';
import { HEAP_CAP_MIB, measureBudgetRuns, measureIngestBudget } from './ingest-budget.ts';
import { measureContention } from './ingest-contention.ts';
import { measureReaderMemory } from './reader-memory.ts';
import { table } from './table.ts';
import { loadNearestChunksQuery } from './nearest-chunks-query.ts';
import { measureFilteredSearch } from './filtered-search.ts';
import { printRequestPaths } from './paths/report.ts';
import { runRequestPaths } from './request-paths.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECTIONS = ['ingest', 'budget', 'scan', 'reader', 'contention', 'query', 'paths'] as const;
type Section = (typeof SECTIONS)[number];

const { values, positionals } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '200' },
    out: { type: 'string', default: path.join(root, 'bench-results', 'ingest.json') },
    'path-chunks': { type: 'string', default: '10000' },
    'path-samples': { type: 'string', default: '100' },
    'chat-samples': { type: 'string', default: '40' },
    'ingest-pages': { type: 'string', default: '500' },
    'paths-out': {
      type: 'string',
      default: path.join(root, 'bench-results', 'request-paths.json'),
    },
  },
  allowPositionals: true,
});

const RUN_DEADLINE_MS = 20 * 60_000;
const STACK_STOP_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;
const UPLOAD_TIMEOUT_MS = 300_000;
const DIMENSIONS = 1536;
const UPLOAD_PAGES = [50, 200];
const HTTP_QUERIES = 20;
const EF_SEARCH = [40, 100];
const TOP = 10;
const WARMUP_QUERIES = 10;
const SEQSCAN_WARMUP_QUERIES = 2;
const PLANNER_SEQSCAN_SAMPLE = 20;

for (const name of positionals) {
  if (!(SECTIONS as readonly string[]).includes(name)) {
    fail(`unknown section "${name}"; choose from: ${SECTIONS.join(', ')}`);
  }
}
const sections: Section[] = positionals.length
  ? SECTIONS.filter((s) => positionals.includes(s))
  : [...SECTIONS];
// Smaller sizes are for smoke tests of the bench itself; the report marks them.
const rows = atLeast(values.rows!, 'rows', 1_000);
const queryCount = atLeast(values.queries!, 'queries', 20);
const pathChunks = atLeast(values['path-chunks']!, 'path-chunks', 1_000);
const pathSamples = atLeast(values['path-samples']!, 'path-samples', 10);
const chatSamples = atLeast(values['chat-samples']!, 'chat-samples', 5);
const ingestPages = atLeast(values['ingest-pages']!, 'ingest-pages', 1);
const undersized =
  (sections.includes('query') && (rows < 10_000 || queryCount < 200)) ||
  (sections.includes('paths') && (pathChunks < 10_000 || ingestPages < 500));
// The isolated stack always seeds the local admin.
const admin = LOCAL_ADMIN;

// ---------------------------------------------------------------------------------------------
// Clean-up on every way out: normal end, error, deadline, Ctrl-C.

const cleanups: (() => Promise<void>)[] = [];
let exiting = false;

async function exitWith(code: number, message?: string): Promise<never> {
  if (message)
    console.error(`bench: ${message.length > 4000 ? `${message.slice(0, 4000)}…` : message}`);
  if (!exiting) {
    exiting = true;
    // Never hang on the way out: each clean-up gets a bounded time.
    const bounded = (cleanup: () => Promise<void>) =>
      Promise.race([
        cleanup().catch((err: unknown) => console.error(`bench: clean-up failed: ${err}`)),
        new Promise<void>((resolve) => setTimeout(resolve, STACK_STOP_TIMEOUT_MS + 5_000).unref()),
      ]);
    for (const cleanup of cleanups.splice(0).reverse()) await bounded(cleanup);
  }
  process.exit(code);
}

function fail(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(1);
}

const deadline = setTimeout(
  () => void exitWith(1, `gave up after ${RUN_DEADLINE_MS / 60_000} minutes`),
  RUN_DEADLINE_MS,
);
deadline.unref();
process.on('SIGINT', () => void exitWith(130, 'interrupted'));
// A crash must not leave an isolated stack running: its process group outlives this one.
process.on('uncaughtException', (err) => void exitWith(1, err.stack ?? err.message));
process.on('unhandledRejection', (err) => void exitWith(1, String(err)));
process.on('SIGTERM', () => void exitWith(143, 'terminated'));

// ---------------------------------------------------------------------------------------------
// Statistics and output

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}

// ---------------------------------------------------------------------------------------------
// Section 1: ingest over HTTP against an isolated local stack

async function call(url: string, init: RequestInit = {}, timeout = REQUEST_TIMEOUT_MS) {
  const res = await fetch(url, {
    ...init,
    redirect: 'error',
    signal: AbortSignal.timeout(timeout),
  });
  const text = await res.text();
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

interface UploadResult {
  pages: number;
  pdf_bytes: number;
  chunks: number;
  seconds: number;
  pages_per_s: number;
  chunks_per_s: number;
  embedding_calls: number;
  embedded_inputs: number;
  other_model_calls: number;
}

/** The register pages of the fixture builder, each heading marked with this run's id. */
function uniquePdf(pages: number, runId: string): Uint8Array {
  const texts = manyPagesText(pages).map((text) =>
    text.replace(/^Register page (\d+) of (\d+)\./, `Register page $1 of $2, bench run ${runId}.`),
  );
  return makeTextPdf(texts, { title: `Bench register ${runId} (${pages} pages)` });
}

async function runIngest() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const runId = Math.random().toString(36).slice(2, 10);
  log(`ingest: starting an isolated stack (data in ${dataDir})`);
  const startedAt = performance.now();
  const dev = await launchDev({ dataDir });
  const stack = {
    base: dev.baseUrl,
    modelUrl: dev.modelControlUrl.replace(/\/_control$/, ''),
    stop: async () => {
      await dev.stop();
    },
  };
  cleanups.push(stack.stop);
  const startup_s = round((performance.now() - startedAt) / 1000, 2);
  log(
    `ingest: stack healthy at ${stack.base} after ${startup_s} s; offline model ${stack.modelUrl}`,
  );

  const login = (await call(`${stack.base}/moduleauth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(admin),
  })) as { data: { token: string } };
  const auth = { Authorization: `Bearer ${login.data.token}` };

  // The first upload of a fresh stack also pays for cold isolates, module loading and the
  // first database connections: a 1-page upload first takes those out of the measurements.
  const warmForm = new FormData();
  warmForm.append(
    'file',
    new Blob([uniquePdf(1, runId)], { type: 'application/pdf' }),
    `bench-${runId}-warmup.pdf`,
  );
  const tw = performance.now();
  await call(
    `${stack.base}/moduleknowledge/upload`,
    { method: 'POST', headers: auth, body: warmForm },
    UPLOAD_TIMEOUT_MS,
  );
  const warmup_upload_s = round((performance.now() - tw) / 1000, 3);
  log(`ingest: warm-up upload (1 page, cold path) took ${warmup_upload_s} s`);

  const uploads: UploadResult[] = [];
  for (const pages of UPLOAD_PAGES) {
    const pdf = uniquePdf(pages, runId);
    await call(`${stack.modelUrl}/_control/reset`, { method: 'POST' });
    const form = new FormData();
    form.append(
      'file',
      new Blob([pdf], { type: 'application/pdf' }),
      `bench-${runId}-${pages}.pdf`,
    );
    const t0 = performance.now();
    const answer = (await call(
      `${stack.base}/moduleknowledge/upload`,
      { method: 'POST', headers: auth, body: form },
      UPLOAD_TIMEOUT_MS,
    )) as { data: { pages: number; chunks: number; duplicate: boolean } };
    const seconds = (performance.now() - t0) / 1000;
    if (answer.data.duplicate) throw new Error(`the ${pages}-page upload was a duplicate`);
    if (answer.data.pages !== pages) {
      throw new Error(`the ${pages}-page upload stored ${answer.data.pages} pages`);
    }
    const recorded = (await call(`${stack.modelUrl}/_control/requests`)) as {
      path: string;
      body: { input?: unknown } | null;
    }[];
    const embeddings = recorded.filter((r) => r.path === '/v1/embeddings');
    const inputs = embeddings.reduce((sum, r) => {
      const input = r.body?.input;
      return sum + (Array.isArray(input) ? input.length : input === undefined ? 0 : 1);
    }, 0);
    const result: UploadResult = {
      pages,
      pdf_bytes: pdf.length,
      chunks: answer.data.chunks,
      seconds: round(seconds, 3),
      pages_per_s: round(pages / seconds, 1),
      chunks_per_s: round(answer.data.chunks / seconds, 1),
      embedding_calls: embeddings.length,
      embedded_inputs: inputs,
      other_model_calls: recorded.length - embeddings.length,
    };
    uploads.push(result);
    log(
      `ingest: ${pages} pages → ${result.chunks} chunks in ${result.seconds} s, ` +
        `${result.embedding_calls} embedding call(s)`,
    );
  }

  // A few queries over HTTP, to check the uploads are findable and see the whole path's latency.
  const samples: number[] = [];
  let found = 0;
  let inTop = 0;
  for (let i = 0; i < HTTP_QUERIES; i++) {
    const page = 1 + ((i * 37) % 200);
    const text = `Register page ${page} of 200, bench run ${runId}`;
    const t0 = performance.now();
    const answer = (await call(
      `${stack.base}/moduleknowledge/query?${new URLSearchParams({ text, top: String(TOP) })}`,
      { headers: auth },
    )) as { data: { page: number; file_name: string }[] };
    samples.push(performance.now() - t0);
    const hit = (m: { page: number; file_name: string }) =>
      m.page === page && m.file_name.includes(`${runId}-200`);
    if (answer.data[0] && hit(answer.data[0])) found++;
    if (answer.data.some(hit)) inTop++;
  }
  log(
    `ingest: ${HTTP_QUERIES} HTTP queries: ${found} found their page first, ${inTop} in the top ` +
      `${TOP}; stopping the stack`,
  );
  await stack.stop();
  return {
    stack_startup_s: startup_s,
    warmup_upload_s,
    uploads,
    // Only the fixture's page headings tell pages apart (their sentences repeat), and the
    // 50-page file has the same headings: a check that the path works, not a relevance score.
    http_query: {
      ...stats(samples),
      top: TOP,
      expected_page_first: found,
      expected_page_in_top: inTop,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Section 2: pgvector in PGlite at scale

interface Variant {
  kind: 'vector';
  index: string;
  createIndex: string;
  /** The statement with $1/$2 = the query vector literal, $3 = top. */
  sql: string;
}

/** The real statement, on the index the migrations create. */
function variants(statement: string): Variant[] {
  return [
    {
      kind: 'vector',
      index: 'chunks_embedding_hnsw_idx',
      // As migrations/0002_knowledge_files.sql creates it.
      createIndex:
        'CREATE INDEX "chunks_embedding_hnsw_idx" ON "chunks" USING hnsw ("embedding" vector_cosine_ops)',
      sql: statement,
    },
  ];
}

const literal = (v: ArrayLike<number>) => `[${Array.from(v).join(',')}]`;

/** What the service stores: the model's float32 values (base64 on the wire). */
const asFloat32 = (v: number[]) => Float32Array.from(v);

interface Sparse {
  idx: Int32Array;
  val: Float64Array;
}

function sparse(v: Float32Array): Sparse {
  const idx: number[] = [];
  const val: number[] = [];
  v.forEach((x, i) => {
    if (x !== 0) {
      idx.push(i);
      val.push(x);
    }
  });
  const norm = Math.sqrt(val.reduce((s, x) => s + x * x, 0));
  return { idx: Int32Array.from(idx), val: Float64Array.from(val, (x) => x / norm) };
}

/** Cosine distance between a stored row and a dense unit query. */
function distance(row: Sparse, query: Float64Array): number {
  let dot = 0;
  for (let i = 0; i < row.idx.length; i++) dot += row.val[i]! * query[row.idx[i]!]!;
  return 1 - dot;
}

interface QueryRun {
  kind: string;
  ef_search: number | 'exact';
  /** 'hnsw' (the planner's choice), 'seq scan' (the planner's choice) or 'hnsw, seqscan off'. */
  plan: string;
  latency: Stats;
  /** Result ids per query (the first `latency.n` queries). */
  ids: number[][];
  /** EXPLAIN of the first query, vector literals elided. */
  explain: string;
}

async function runQuerySection() {
  const nearestChunksQuery = await loadNearestChunksQuery();
  const dialect = new PgDialect();
  const rendered = dialect.sqlToQuery(nearestChunksQuery([0], { top: TOP }));
  const kinds = variants(rendered.sql);

  log('query: opening PGlite + pgvector in memory and applying migrations/');
  const pg = await PGlite.create({ extensions: { vector } });
  cleanups.push(() => pg.close());
  await migrate(drizzle({ client: pg }), { migrationsFolder: path.join(root, 'migrations') });
  const versions = await pg.query<{ pg: string; vector: string }>(
    `select current_setting('server_version') as pg,
            (select extversion from pg_extension where extname = 'vector') as vector`,
  );
  // The migration's HNSW index is dropped: the bulk load goes first and the build is measured.
  await pg.exec('DROP INDEX "chunks_embedding_hnsw_idx"');

  const docs = Math.ceil(rows / 50);
  const t0 = performance.now();
  const corpus = makeCorpus({ docs, chunksPerDoc: 50 });
  const chunks = corpus.chunks.slice(0, rows);
  const vectors = chunks.map((c) => asFloat32(embedText(c.content, DIMENSIONS)));
  const embed_s = (performance.now() - t0) / 1000;
  const stored = vectors.map(sparse);
  const nonZero = stored.map((s) => s.idx.length).sort((a, b) => a - b);
  log(
    `query: ${rows} chunks of ${docs} documents embedded in ${embed_s.toFixed(1)} s ` +
      `(non-zero dimensions per vector: median ${nonZero[nonZero.length >> 1]} of ${DIMENSIONS})`,
  );

  const fileIds = Array.from({ length: docs }, () => crypto.randomUUID());
  await pg.query(
    `insert into files (id, name, size, sha256, pages, chunks, uploader_id, uploader_name)
     select id, 'bench-' || n || '.pdf', 100000, md5(id::text), 8, 50, $2::uuid, 'bench'
     from unnest($1::uuid[]) with ordinality as t(id, n)`,
    [fileIds, crypto.randomUUID()],
  );
  const BATCH = 250;
  const t1 = performance.now();
  for (let start = 0; start < rows; start += BATCH) {
    const slice = chunks.slice(start, start + BATCH);
    await pg.query(
      `insert into chunks (id, file_id, page, index, content, embedding)
       select id, file_id, page, index, content, embedding::vector
       from unnest($1::bigint[], $2::uuid[], $3::int[], $4::int[], $5::text[], $6::text[])
         as t(id, file_id, page, index, content, embedding)`,
      [
        slice.map((_, i) => start + i + 1),
        slice.map((c) => fileIds[c.doc]!),
        slice.map((c) => c.page),
        slice.map((c) => c.index),
        slice.map((c) => c.content),
        slice.map((_, i) => literal(vectors[start + i]!)),
      ],
    );
  }
  const insert_s = (performance.now() - t1) / 1000;
  await pg.exec('ANALYZE chunks; ANALYZE files;');
  log(
    `query: inserted ${rows} rows in ${insert_s.toFixed(1)} s (${Math.round(rows / insert_s)} rows/s)`,
  );

  const questions = makeQuestions(chunks, corpus.words, queryCount);
  const queryVectors = questions.map((q) => asFloat32(embedText(q.text, DIMENSIONS)));
  const queryDense = queryVectors.map((v) => {
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return Float64Array.from(v, (x) => x / norm);
  });
  const queryLiterals = queryVectors.map(literal);

  await pg.exec(`SET maintenance_work_mem = '512MB'`);
  const builds: Record<string, { build_s: number; index_bytes: number }> = {};
  for (const v of kinds) {
    log(`query: building the ${v.kind} HNSW index (m 16, ef_construction 64)…`);
    const tb = performance.now();
    await pg.exec(v.createIndex);
    const build_s = (performance.now() - tb) / 1000;
    const size = await pg.query<{ bytes: string }>(
      `select pg_relation_size($1::regclass)::text as bytes`,
      [v.index],
    );
    builds[v.kind] = { build_s: round(build_s, 2), index_bytes: Number(size.rows[0]!.bytes) };
    log(
      `query: ${v.kind} index built in ${build_s.toFixed(1)} s, ` +
        `${(builds[v.kind]!.index_bytes / 2 ** 20).toFixed(1)} MiB`,
    );
  }
  const tableBytes = await pg.query<{ heap: string; toast: string }>(
    `select pg_relation_size('chunks')::text as heap,
            coalesce(pg_total_relation_size(reltoastrelid), 0)::text as toast
     from pg_class where oid = 'chunks'::regclass`,
  );

  const params = (i: number) => [queryLiterals[i]!, queryLiterals[i]!, TOP];
  const explain = async (v: Variant) => {
    const result = await pg.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${v.sql}`, params(0));
    return result.rows.map((r) => r['QUERY PLAN'].replace(/'\[[^\]]*\]'/g, "'[…]'")).join('\n');
  };
  const measure = async (
    v: Variant,
    ef: number | 'exact',
    plan: string,
    count: number,
  ): Promise<QueryRun> => {
    const explained = await explain(v);
    const usesIndex = explained.includes(`Index Scan using ${v.index}`);
    // Exact means the vector index is not used; the ready filter's lookup of the file by its
    // primary key may be an index scan either way (the planner's choice with 200 files).
    if (usesIndex !== plan.startsWith('hnsw') || (ef === 'exact' && explained.includes(v.index))) {
      throw new Error(`unexpected plan for ${v.kind} ${ef} (${plan}):\n${explained}`);
    }
    const warmup = plan === 'seq scan' ? SEQSCAN_WARMUP_QUERIES : WARMUP_QUERIES;
    for (let i = 0; i < Math.min(warmup, count); i++) await pg.query(v.sql, params(i));
    const samples: number[] = [];
    const ids: number[][] = [];
    for (let i = 0; i < count; i++) {
      const tq = performance.now();
      const result = await pg.query<{ id: string | number }>(v.sql, params(i));
      samples.push(performance.now() - tq);
      ids.push(result.rows.map((r) => Number(r.id)));
    }
    const latency = stats(samples);
    log(
      `query: ${v.kind.padEnd(7)} ${String(ef).padEnd(5)} ${plan.padEnd(17)} ` +
        `median ${latency.median_ms.toFixed(2)} ms, p95 ${latency.p95_ms.toFixed(2)} ms (${count} queries)`,
    );
    return { kind: v.kind, ef_search: ef, plan, latency, ids, explain: explained };
  };

  // Exact search: the same statement with index scans off. Approximate search: what the planner chooses at that ef_search; when that is not the
  // index (pgvector's cost estimate can prefer a sequential scan), a sample as planned, then
  // every query with enable_seqscan off, so that the index itself is measured too.
  const runs: QueryRun[] = [];
  const sample = Math.min(PLANNER_SEQSCAN_SAMPLE, queryCount);
  for (const v of kinds) {
    await pg.exec('SET enable_indexscan = off');
    runs.push(await measure(v, 'exact', 'seq scan', queryCount));
    await pg.exec('RESET enable_indexscan');
    for (const ef of EF_SEARCH) {
      await pg.exec(`SET hnsw.ef_search = ${ef}`);
      if ((await explain(v)).includes(`Index Scan using ${v.index}`)) {
        runs.push(await measure(v, ef, 'hnsw', queryCount));
      } else {
        runs.push(await measure(v, ef, 'seq scan', sample));
        await pg.exec('SET enable_seqscan = off');
        runs.push(await measure(v, ef, 'hnsw, seqscan off', queryCount));
        await pg.exec('RESET enable_seqscan');
      }
      await pg.exec('RESET hnsw.ef_search');
    }
  }

  // Exact top-10 in JS over the stored values (float32): a check of the database's exact
  // search.
  const jsExact = (rowsOf: Sparse[], q: number) =>
    rowsOf
      .map((row, i) => ({ id: i + 1, d: distance(row, queryDense[q]!) }))
      .sort((a, b) => a.d - b.d || a.id - b.id)
      .slice(0, TOP + 1);
  const nearestFloat = queryDense.map((_, q) => jsExact(stored, q));
  const exactFloat = nearestFloat.map((n) => n.slice(0, TOP).map((x) => x.id));
  // How far apart the exact neighbours are: a tail of near-equal similarities is hard for any
  // approximate index, and is what recall@10 mostly measures here.
  const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const similarity = {
    first_median: round(medianOf(nearestFloat.map((n) => 1 - n[0]!.d)), 4),
    tenth_median: round(medianOf(nearestFloat.map((n) => 1 - n[TOP - 1]!.d)), 4),
    gap_10th_11th_median: round(medianOf(nearestFloat.map((n) => n[TOP]!.d - n[TOP - 1]!.d)), 5),
  };

  // Recall@10 against the database's exact search (the vector column, float32). A result also
  // counts under "ties ok" when its true distance is no larger than the 10th exact one.
  const truth = runs.find((r) => r.kind === 'vector' && r.ef_search === 'exact')!.ids;
  const EPS = 1e-6;
  const recall = (ids: number[][], reference: number[][]) => {
    let strict = 0;
    let tolerant = 0;
    let total = 0;
    let first = 0;
    ids.forEach((got, q) => {
      const want = new Set(reference[q]);
      const kth = Math.max(...reference[q]!.map((id) => distance(stored[id - 1]!, queryDense[q]!)));
      total += reference[q]!.length;
      for (const id of got) {
        if (want.has(id)) strict++;
        if (distance(stored[id - 1]!, queryDense[q]!) <= kth + EPS) tolerant++;
      }
      const best = distance(stored[reference[q]![0]! - 1]!, queryDense[q]!);
      if (got[0] && distance(stored[got[0] - 1]!, queryDense[q]!) <= best + EPS) first++;
    });
    return {
      ids: round(strict / total, 4),
      ties_ok: round(tolerant / total, 4),
      // The nearest chunk found first (a tie with it counts).
      at_1: round(first / ids.length, 4),
    };
  };
  const results = runs.map((r) => ({
    kind: r.kind,
    ef_search: r.ef_search,
    plan: r.plan,
    explain: r.explain,
    latency: r.latency,
    recall_at_10: recall(r.ids, truth),
    // Against the exact search computed here: the same as recall_at_10 up to rounding.
    recall_at_10_vs_own_exact: recall(r.ids, exactFloat),
  }));
  const checks = {
    js_exact_vs_db_exact_vector: recall(exactFloat, truth).ids,
    exact_similarity: similarity,
  };

  // Would a lower random_page_cost (SSD-like; Postgres's default 4 prices every HNSW page as a
  // random read, while the sequential scan's estimate leaves out the TOASTed vectors) make the
  // planner use the index? EXPLAIN only.
  const plannerAt: Record<string, Record<string, string>> = {};
  for (const cost of [4, 1.1]) {
    await pg.exec(`SET random_page_cost = ${cost}`);
    for (const v of kinds) {
      for (const ef of EF_SEARCH) {
        await pg.exec(`SET hnsw.ef_search = ${ef}`);
        const uses = (await explain(v)).includes(`Index Scan using ${v.index}`);
        (plannerAt[`random_page_cost ${cost}`] ??= {})[`${v.kind} ef_search ${ef}`] = uses
          ? 'hnsw'
          : 'seq scan';
      }
    }
  }
  await pg.exec('RESET random_page_cost; RESET hnsw.ef_search');

  // Document filters (bench/filtered-search.ts): the service's hybrid statement with and
  // without them, on the same chunks.
  log('query: hybrid search with document filters…');
  const filtered = await measureFilteredSearch({
    pg,
    fileIds,
    chunkDocs: chunks.map((c) => c.doc),
    chunkTexts: chunks.map((c) => c.content),
    distance: (id, q) => distance(stored[id - 1]!, queryDense[q]!),
    questions: questions.map((q) => q.text),
    queryVectors,
    top: TOP,
    warmup: WARMUP_QUERIES,
  });
  for (const f of filtered) {
    log(
      `query: filter ${f.name.padEnd(24)} hybrid median ${f.hybrid.median_ms.toFixed(2)} ms, ` +
        `p95 ${f.hybrid.p95_ms.toFixed(2)} ms; vector recall@10 ${f.recall_at_10.toFixed(3)}`,
    );
  }

  const sampleQuestions = questions.slice(0, 3).map((q) => q.text);
  return {
    postgres: versions.rows[0]!.pg,
    pgvector: versions.rows[0]!.vector,
    rows,
    documents: docs,
    queries: queryCount,
    top: TOP,
    vectors: {
      dimensions: DIMENSIONS,
      source:
        'offline model embedText (dev/stack/offline-model/lexical.ts): lexical feature hashing, ' +
        `sparse: constant weight ${CONSTANT_WEIGHT} on dimension 0 plus one signed bucket per ` +
        'distinct token; NOT the geometry of a neural embedding model',
      non_zero_dimensions_median: nonZero[nonZero.length >> 1],
      non_zero_dimensions_p95: nonZero[Math.floor(nonZero.length * 0.95)],
      texts:
        'synthetic paragraphs (pseudo-words, Zipf frequencies, per-document topic words, ' +
        'English function words) of 350–500 characters; questions made of 3–6 words of a random chunk',
      sample_questions: sampleQuestions,
    },
    embed_s: round(embed_s, 2),
    insert: { seconds: round(insert_s, 2), rows_per_s: Math.round(rows / insert_s), batch: BATCH },
    table_bytes: {
      heap: Number(tableBytes.rows[0]!.heap),
      toast: Number(tableBytes.rows[0]!.toast),
    },
    maintenance_work_mem: '512MB',
    hnsw: { m: 16, ef_construction: 64 },
    indexes: builds,
    statement: rendered.sql.replace(/\s+/g, ' ').trim(),
    seq_scan_sample: Math.min(PLANNER_SEQSCAN_SAMPLE, queryCount),
    planner_choice: plannerAt,
    checks,
    results,
    filtered,
  };
}

// ---------------------------------------------------------------------------------------------

function atLeast(raw: string, name: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer ≥ ${min}`);
  return n;
}

type IngestResults = Awaited<ReturnType<typeof runIngest>>;
type QueryResults = Awaited<ReturnType<typeof runQuerySection>>;
type PathsResults = Awaited<ReturnType<typeof runRequestPaths>>;

function printIngest(r: IngestResults): void {
  console.log(
    `\nIngest over HTTP (isolated stack, offline model; stack start-up ${r.stack_startup_s} s)\n`,
  );
  console.log(
    table(
      [
        'upload',
        'PDF KiB',
        'seconds',
        'pages/s',
        'chunks',
        'chunks/s',
        'embedding calls',
        'inputs',
      ],
      r.uploads.map((u) => [
        `${u.pages} pages`,
        (u.pdf_bytes / 1024).toFixed(0),
        u.seconds.toFixed(2),
        u.pages_per_s.toFixed(1),
        String(u.chunks),
        u.chunks_per_s.toFixed(0),
        String(u.embedding_calls),
        String(u.embedded_inputs),
      ]),
    ),
  );
  const q = r.http_query;
  console.log(
    `\nWarm-up upload (1 page, cold path, not in the table): ${r.warmup_upload_s} s. "inputs" are ` +
      'the distinct chunk texts embedded (the fixture repeats its sentences; the worker embeds ' +
      'each distinct text once).',
  );
  console.log(
    `GET /moduleknowledge/query over HTTP: ${q.n} queries, median ${q.median_ms.toFixed(1)} ms, ` +
      `p95 ${q.p95_ms.toFixed(1)} ms; the page asked for came first ${q.expected_page_first}/${q.n}, ` +
      `in the top ${q.top} ${q.expected_page_in_top}/${q.n}`,
  );
}

function printQuery(r: QueryResults): void {
  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  console.log(
    `\npgvector ${r.pgvector} on PGlite (Postgres ${r.postgres}), ${r.rows} chunks × ${r.vectors.dimensions} dims, ` +
      `${r.queries} queries, top ${r.top}`,
  );
  console.log(
    `Vectors: the offline model's LEXICAL embeddings (sparse: median ${r.vectors.non_zero_dimensions_median} ` +
      `non-zero dimensions of ${r.vectors.dimensions}); a neural model's dense vectors behave differently.`,
  );
  console.log(
    `Load: embedded in ${r.embed_s} s, inserted in ${r.insert.seconds} s (${r.insert.rows_per_s} rows/s); ` +
      `table heap ${mib(r.table_bytes.heap)} MiB + TOAST ${mib(r.table_bytes.toast)} MiB\n`,
  );
  console.log(
    table(
      ['index', 'build s', 'size MiB'],
      Object.entries(r.indexes).map(([kind, b]) => [
        kind,
        b.build_s.toFixed(1),
        mib(b.index_bytes),
      ]),
    ),
  );
  console.log('');
  console.log(
    table(
      [
        'type',
        'ef_search',
        'plan',
        'queries',
        'median ms',
        'p95 ms',
        'recall@10',
        'ties ok',
        'vs own exact',
        'recall@1',
      ],
      r.results.map((x) => [
        x.kind,
        String(x.ef_search),
        x.plan,
        String(x.latency.n),
        x.latency.median_ms.toFixed(2),
        x.latency.p95_ms.toFixed(2),
        x.recall_at_10.ids.toFixed(3),
        x.recall_at_10.ties_ok.toFixed(3),
        x.recall_at_10_vs_own_exact.ids.toFixed(3),
        x.recall_at_10.at_1.toFixed(3),
      ]),
    ),
  );
  console.log(
    `\nChecks: JS exact top-10 vs the database's exact vector search ${r.checks.js_exact_vs_db_exact_vector.toFixed(3)}.`,
  );
  const sim = r.checks.exact_similarity;
  console.log(
    `Exact neighbours (median over queries): similarity of the 1st ${sim.first_median}, of the ` +
      `10th ${sim.tenth_median}; the 11th is ${sim.gap_10th_11th_median} further than the 10th.`,
  );
  console.log(
    `Planner's choice (EXPLAIN): ${Object.entries(r.planner_choice)
      .map(
        ([cost, choices]) =>
          `${cost}: ${Object.entries(choices)
            .map(([k, v]) => `${k} → ${v}`)
            .join(', ')}`,
      )
      .join('; ')}.`,
  );
  const none = r.filtered.find((f) => f.filters === null)!;
  console.log("\nHybrid search (store/search.ts) with document filters, the service's settings:");
  console.log(
    table(
      [
        'filter',
        'path',
        'chunks kept',
        'hybrid p50 ms',
        'p95 ms',
        '× unfiltered p50',
        'lookup p50 ms',
        'vector p50 ms',
        'recall@10',
      ],
      r.filtered.map((f) => [
        f.name,
        f.path,
        `${(f.selectivity * 100).toFixed(1)} %`,
        f.hybrid.median_ms.toFixed(2),
        f.hybrid.p95_ms.toFixed(2),
        (f.hybrid.median_ms / none.hybrid.median_ms).toFixed(2),
        f.lookup_p50_ms.toFixed(2),
        f.vector.median_ms.toFixed(2),
        f.recall_at_10.toFixed(3),
      ]),
    ),
  );
  console.log(
    'plan: "hnsw" and "seq scan" are the planner\'s choices; "hnsw, seqscan off" forces the index ' +
      'where the planner would not use it.',
  );
  console.log(
    'recall@10: share of the exact vector top-10 ids found; "ties ok" also counts a result whose ' +
      'true distance equals the 10th; "vs own exact": against exact search of the same type; ' +
      'recall@1: the nearest chunk came first.',
  );
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const t0 = performance.now();
  const cpus = os.cpus();
  console.log(
    `kbchat bench: ${sections.join(' + ')} on ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, ` +
      `Node ${process.version}${undersized ? ' (UNDERSIZED smoke test)' : ''}`,
  );
  const output: Record<string, unknown> = {
    started_at: startedAt.toISOString(),
    machine: {
      cpus: cpus.length,
      cpu_model: cpus[0]?.model,
      memory_gib: round(os.totalmem() / 2 ** 30, 1),
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      node: process.version,
      // Other work on the machine skews every timing: the 1-minute load average at the start.
      load_average_start: os.loadavg().map((x) => round(x, 2)),
    },
    sections,
    ...(undersized
      ? {
          undersized:
            'smoke test: fewer than 10,000 rows or chunks, 200 queries or 500 ingested pages',
        }
      : {}),
  };
  const timings: Record<string, number> = {};
  let ingest: IngestResults | undefined;
  let query: QueryResults | undefined;
  let paths: PathsResults | undefined;
  if (sections.includes('ingest')) {
    const ts = performance.now();
    ingest = await runIngest();
    timings.ingest_s = round((performance.now() - ts) / 1000, 1);
    output.ingest = ingest;
  }
  if (sections.includes('budget')) {
    const ts = performance.now();
    output.budget = await measureIngestBudget(
      path.join(root, 'bench-results', 'ingest-budget.json'),
    );
    timings.budget_s = round((performance.now() - ts) / 1000, 1);
  }
  if (sections.includes('scan')) {
    // Scans through the whole stack and its OCR service: a 10-page scan's time to ready (V8's
    // defaults), and a 50-page scan under the 64 MiB old-space cap (the run aborts if either
    // isolate's live heap does not fit).
    const ts = performance.now();
    const scan = async (pages: number) => ({ pdf: (await chinesePolicyScan(pages)).bytes, pages });
    output.scan = await measureBudgetRuns(path.join(root, 'bench-results', 'scan-budget.json'), [
      { cap: null, document: () => scan(10) },
      { cap: HEAP_CAP_MIB, document: () => scan(50) },
    ]);
    timings.scan_s = round((performance.now() - ts) / 1000, 1);
  }
  if (sections.includes('reader')) {
    const ts = performance.now();
    output.reader = await measureReaderMemory(
      path.join(root, 'bench-results', 'reader-memory.json'),
    );
    timings.reader_s = round((performance.now() - ts) / 1000, 1);
  }
  if (sections.includes('contention')) {
    const ts = performance.now();
    output.contention = await measureContention(
      path.join(root, 'bench-results', 'contention.json'),
    );
    timings.contention_s = round((performance.now() - ts) / 1000, 1);
  }
  if (sections.includes('query')) {
    const ts = performance.now();
    query = await runQuerySection();
    timings.query_s = round((performance.now() - ts) / 1000, 1);
    output.query = query;
  }
  if (sections.includes('paths')) {
    const ts = performance.now();
    paths = await runRequestPaths({
      chunks: pathChunks,
      samples: pathSamples,
      chatSamples,
      ingestPages,
      log,
      onCleanup: (cleanup) => cleanups.push(cleanup),
    });
    timings.paths_s = round((performance.now() - ts) / 1000, 1);
  }
  // Clean-ups (stack stop, temp folder, PGlite) before the report.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  timings.total_s = round((performance.now() - t0) / 1000, 1);
  output.finished_at = new Date().toISOString();
  output.load_average_end = os.loadavg().map((x) => round(x, 2));
  output.durations = timings;

  if (ingest) printIngest(ingest);
  if (query) printQuery(query);
  if (paths) printRequestPaths(paths);
  console.log(
    `\nDurations: ${Object.entries(timings)
      .map(([k, v]) => `${k.replace(/_s$/, '')} ${v} s`)
      .join(', ')}; load average (1, 5, 15 min) at the start ` +
      `${(output.machine as { load_average_start: number[] }).load_average_start.join(', ')}, ` +
      `at the end ${(output.load_average_end as number[]).join(', ')} on ${cpus.length} CPUs`,
  );
  const written: string[] = [];
  if (output.budget) written.push(path.join(root, 'bench-results', 'ingest-budget.json'));
  if (output.scan) written.push(path.join(root, 'bench-results', 'scan-budget.json'));
  if (output.reader) written.push(path.join(root, 'bench-results', 'reader-memory.json'));
  if (output.contention) written.push(path.join(root, 'bench-results', 'contention.json'));
  if (ingest || query) {
    await mkdir(path.dirname(values.out!), { recursive: true });
    await writeFile(values.out!, `${JSON.stringify(output, null, 2)}\n`);
    written.push(values.out!);
  }
  if (paths) {
    const common = Object.fromEntries(
      Object.entries(output).filter(([key]) => key !== 'ingest' && key !== 'query'),
    );
    const file = values['paths-out']!;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify({ ...common, paths }, null, 2)}\n`);
    written.push(file);
  }
  console.log(
    `written to ${written.map((file) => path.relative(process.cwd(), file) || file).join(', ')}`,
  );
}

try {
  await main();
} catch (err) {
  await exitWith(1, err instanceof Error ? (err.stack ?? err.message) : String(err));
}
clearTimeout(deadline);
