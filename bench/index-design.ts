// Index design study: which pgvector index lets ingestion go fastest while the served query
// keeps recall@10 ≥ 0.99 against exact search?
//
//   npm run bench:index                                   # 10,000 base rows, every design
//   npm run bench:index -- --rows 100000 --variants vector-1536,bq-1536 --maintenance-work-mem 1GB
//
// In this process: PGlite + pgvector with the repo's migrations, chunk texts from bench/corpus.ts
// embedded with the offline model's lexical embeddings (the same texts and questions for every
// design). For each design (bench/index-design/variants.ts):
//   1. bulk-load the base rows, build the index: build time, index size;
//   2. queries with the design's own statement under the served settings (ef_search, relaxed
//      iterative scans, random_page_cost 1.1), per setting (ef_search, or K candidates for the
//      re-ranked designs): p50/p95 latency and recall@10 against exact search computed in JS,
//      unfiltered and limited to three files;
//   3. inserts into the indexed table, each run from a snapshot of step 1: batches of 100, 500
//      and 1,000 rows per statement, in document order and shuffled, rows/s of the statements.
// Results are merged into bench-results/index-design.json under the base row count.
//
// Options: --rows 10000 (a multiple of 50), --extra 2000 (rows an insert run may add),
// --queries 200, --filtered 100, --scan-sample 20 (queries timed when the plan is a full scan),
// --budget 30 (seconds of inserts per run, at whole batches), --variants a,b (default: all),
// --maintenance-work-mem 512MB, --out bench-results/index-design.json.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { makeCorpus, makeQuestions, rng } from './corpus.ts';
import { copyChunks } from './index-design/binary-copy.ts';
import {
  insertFiles,
  openDatabase,
  prepareSchema,
  relationBytes,
  tableBytes,
  type ChunkRow,
} from './index-design/database.ts';
import {
  FULL_CONFIGS,
  SHORT_CONFIGS,
  insertRuns,
  measureInsertRun,
  type InsertPlan,
} from './index-design/inserts.ts';
import { measureSetting, type SettingResult } from './index-design/queries.ts';
import {
  dimensionsNote,
  insertTable,
  queryTable,
  summaryTable,
  type VariantResult,
} from './index-design/report.ts';
import { vectorSet, type VectorSet, type Workload } from './index-design/vector-sets.ts';
import { TOP, variantsNamed, type Variant } from './index-design/variants.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHUNKS_PER_DOC = 50;
const BULK_BATCH = 1000;

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    extra: { type: 'string', default: '2000' },
    queries: { type: 'string', default: '200' },
    filtered: { type: 'string', default: '100' },
    'scan-sample': { type: 'string', default: '20' },
    budget: { type: 'string', default: '30' },
    variants: { type: 'string' },
    'maintenance-work-mem': { type: 'string', default: '512MB' },
    out: { type: 'string', default: path.join(root, 'bench-results', 'index-design.json') },
    print: { type: 'boolean', default: false },
  },
});

function integer(name: string, min: number): number {
  const n = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return n;
}

const rows = integer('rows', 1_000);
const extra = integer('extra', 100);
const queryCount = integer('queries', 20);
const filteredCount = Math.min(integer('filtered', 0), queryCount);
const scanSample = integer('scan-sample', 1);
const budgetSeconds = integer('budget', 1);
if (rows % CHUNKS_PER_DOC || extra % CHUNKS_PER_DOC) {
  throw new Error(`--rows and --extra must be multiples of ${CHUNKS_PER_DOC}`);
}
if (!/^\d+[kMG]B$/.test(values['maintenance-work-mem']!)) {
  throw new Error('--maintenance-work-mem looks like 512MB or 1GB');
}
const variants = variantsNamed(values.variants?.split(',').map((s) => s.trim()));

const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const seconds = (since: number) => (performance.now() - since) / 1000;

function makeWorkload(): Workload {
  const docs = (rows + extra) / CHUNKS_PER_DOC;
  const corpus = makeCorpus({ docs, chunksPerDoc: CHUNKS_PER_DOC });
  const baseDocs = rows / CHUNKS_PER_DOC;
  const questions = makeQuestions(corpus.chunks.slice(0, rows), corpus.words, queryCount);
  // A filtered question is limited to its source document and two others (the web app's
  // "ask these files").
  const random = rng(1_234);
  const filterDocs = questions.slice(0, filteredCount).map((q) => {
    const docs = new Set([corpus.chunks[q.source]!.doc]);
    while (docs.size < 3) docs.add(Math.floor(random() * baseDocs));
    return docs;
  });
  return { chunks: corpus.chunks, base: rows, questions, filterDocs };
}

function chunkRow(
  workload: Workload,
  set: VectorSet,
  fileIds: string[],
  i: number,
  withLiteral = true,
): ChunkRow {
  const c = workload.chunks[i]!;
  return {
    id: i + 1,
    fileId: fileIds[c.doc]!,
    page: c.page,
    index: c.index,
    content: c.content,
    embedding: withLiteral ? set.literal(i) : '',
  };
}

/** Share of the exact top-10 ids of `set` that are also in the 1536-dim lexical exact top-10. */
function overlapWith1536(workload: Workload, set: VectorSet): number {
  const reference = vectorSet(workload, 'lexical', 1536).exact;
  let same = 0;
  let total = 0;
  set.exact.forEach((list, q) => {
    const want = new Set(reference[q]!.slice(0, TOP).map((n) => n.id));
    for (const n of list.slice(0, TOP)) if (want.has(n.id)) same++;
    total += Math.min(TOP, list.length);
  });
  return Math.round((same / total) * 10_000) / 10_000;
}

async function buildIndex(pg: PGlite, variant: Variant) {
  if (!variant.index) return { build_s: null, index_bytes: null, build_notices: [] };
  const notices: string[] = [];
  await pg.exec(`SET maintenance_work_mem = '${values['maintenance-work-mem']}'`);
  const t0 = performance.now();
  await pg.query(variant.index.ddl, [], { onNotice: (n) => notices.push(n.message ?? '') });
  const build_s = Math.round(seconds(t0) * 100) / 100;
  return {
    build_s,
    index_bytes: await relationBytes(pg, variant.index.name),
    build_notices: notices,
  };
}

/** Build and queries; the snapshot and plan for its insert runs, which come later. */
async function measureVariant(
  variant: Variant,
  workload: Workload,
  fileIds: string[],
): Promise<{ result: VariantResult; snapshot: Blob; plan: InsertPlan }> {
  const set = vectorSet(workload, variant.space, variant.dimensions);
  const pg = await openDatabase();
  let snapshot: Blob;
  let result: Omit<VariantResult, 'inserts'>;
  try {
    await prepareSchema(pg, variant.column);
    await insertFiles(pg, fileIds);
    // Binary COPY, before any vector index exists; only the COPY statements are timed.
    let busy = 0;
    for (let start = 0; start < rows; start += BULK_BATCH) {
      const batch = [];
      for (let i = start; i < Math.min(rows, start + BULK_BATCH); i++) {
        batch.push({ ...chunkRow(workload, set, fileIds, i, false), embedding: set.values(i) });
      }
      const t0 = performance.now();
      await copyChunks(pg, batch);
      busy += performance.now() - t0;
    }
    const bulk_s = busy / 1000;
    await pg.exec('ANALYZE chunks; ANALYZE files;');
    log(`${variant.name}: ${rows} rows loaded in ${bulk_s.toFixed(1)} s; building the index…`);
    const build = await buildIndex(pg, variant);
    if (build.build_s !== null) {
      log(
        `${variant.name}: index built in ${build.build_s} s, ` +
          `${((build.index_bytes ?? 0) / 2 ** 20).toFixed(1)} MiB` +
          (build.build_notices.length ? ` (${build.build_notices.join('; ')})` : ''),
      );
    }
    const queries: SettingResult[] = [];
    for (const setting of variant.settings) {
      const r = await measureSetting(pg, variant, setting, set, workload, fileIds, {
        unfiltered: queryCount,
        filtered: filteredCount,
        scanSample,
      });
      queries.push(r);
      const u = r.unfiltered;
      log(
        `${variant.name} ${r.setting}: ${u.plan}, p50 ${u.latency.median_ms.toFixed(1)} ms, ` +
          `p95 ${u.latency.p95_ms.toFixed(1)} ms, recall@10 ${u.recall.ties_ok} (ids ${u.recall.ids})` +
          (r.filtered
            ? `; filtered: ${r.filtered.plan}, p50 ${r.filtered.latency.median_ms.toFixed(1)} ms, ` +
              `recall ${r.filtered.recall.ties_ok}, short ${r.filtered.recall.short_results}`
            : ''),
      );
    }
    result = {
      name: variant.name,
      summary: variant.summary,
      column: variant.column,
      index_ddl: variant.index?.ddl ?? null,
      dimensions: variant.dimensions,
      space: variant.space,
      base_rows: rows,
      bulk_load_rows_per_s: Math.round(rows / bulk_s),
      ...build,
      table_bytes: await tableBytes(pg),
      exact_overlap_with_1536: overlapWith1536(workload, set),
      queries,
    };
    snapshot = await pg.dumpDataDir('none');
  } finally {
    await pg.close();
  }
  const plan: InsertPlan = {
    configs: variant.inserts === 'full' ? FULL_CONFIGS : SHORT_CONFIGS,
    rows: extra,
    row: (i) => chunkRow(workload, set, fileIds, rows + i),
    maxRows: extra,
    budgetSeconds,
    repeatFirst: true,
  };
  return { result: { ...result, inserts: [] }, snapshot, plan };
}

function printTables(base: number, queries: number, results: VariantResult[]): void {
  console.log(`\nIndex designs over ${base} chunks (offline model vectors), ${queries} queries`);
  console.log(
    'insert rows/s: batches of 100 in document order into the indexed table; index ms/row: ' +
      'the same minus no index; setting: the first in the sweep whose recall@10 (ties ok) ' +
      'reaches 0.99, with its latency\n',
  );
  console.log(summaryTable(results));
  console.log('\nEvery setting (f. = limited to three files; short = queries with fewer rows)\n');
  console.log(queryTable(results));
  console.log('\nInsert throughput into the indexed table (rows/s of the insert statements)\n');
  console.log(insertTable(results));
  const note = dimensionsNote(results);
  if (note) console.log(`\n${note}`);
}

/** --print: the tables of every size in the JSON file, without measuring anything. */
async function printSaved(): Promise<void> {
  const saved = await readPrevious(values.out!);
  const sizes = (saved.sizes ?? {}) as Record<
    string,
    { queries: number; variants: VariantResult[] }
  >;
  for (const [base, run] of Object.entries(sizes))
    printTables(Number(base), run.queries, run.variants);
}

async function readPrevious(file: string): Promise<Record<string, unknown>> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  const startedAt = new Date().toISOString();
  const loadStart = os.loadavg();
  log(
    `index design: ${rows} base rows (+ up to ${extra} inserted), ${queryCount} queries ` +
      `(${filteredCount} filtered), designs: ${variants.map((v) => v.name).join(', ')}; ` +
      `load average ${loadStart.map((x) => x.toFixed(2)).join(', ')} on ${cpus.length} CPUs`,
  );
  const t0 = performance.now();
  const workload = makeWorkload();
  const fileIds = Array.from(
    { length: (rows + extra) / CHUNKS_PER_DOC },
    () => crypto.randomUUID() as string,
  );
  for (const v of variants) vectorSet(workload, v.space, v.dimensions);
  if (variants.some((v) => v.dimensions !== 1536)) vectorSet(workload, 'lexical', 1536);
  log(`vectors embedded, exact neighbours computed in ${seconds(t0).toFixed(1)} s`);

  const results: VariantResult[] = [];
  // Saved after every design, so that a long run stopped half-way keeps what it measured.
  const save = async () => {
    const out = values.out!;
    const previous = await readPrevious(out);
    const sizes = (previous.sizes ?? {}) as Record<string, unknown>;
    const previousRun = sizes[String(rows)] as { variants?: VariantResult[] } | undefined;
    // A run of some designs keeps the other designs' results from earlier runs at this size.
    const kept = (previousRun?.variants ?? []).filter(
      (v) => !results.some((r) => r.name === v.name),
    );
    sizes[String(rows)] = {
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      machine: {
        cpus: cpus.length,
        cpu_model: cpus[0]?.model,
        node: process.version,
        load_average_start: loadStart,
        load_average_end: os.loadavg(),
      },
      rows,
      extra,
      queries: queryCount,
      filtered_queries: filteredCount,
      insert_budget_s: budgetSeconds,
      maintenance_work_mem: values['maintenance-work-mem'],
      vectors:
        'offline model embedText (lexical feature hashing; sparse), bench/corpus.ts texts; ' +
        '"rotated": the same vectors under a random rotation (dense, same cosines)',
      variants: [...kept, ...results],
    };
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify({ ...previous, sizes }, null, 2)}\n`);
    return out;
  };
  // Builds and queries, design after design; then the insert runs round-robin across the designs
  // (run 1 of each, run 2 of each, …), so that a change in the machine's load (2 shared cores)
  // falls on every design alike instead of on whichever was being measured.
  const pending: { snapshot: Blob; plan: InsertPlan; result: VariantResult }[] = [];
  for (const variant of variants) {
    const tv = performance.now();
    const loadBefore = os.loadavg()[0]!;
    const measured = await measureVariant(variant, workload, fileIds);
    measured.result.load_average_1m = [loadBefore, os.loadavg()[0]!];
    results.push(measured.result);
    pending.push(measured);
    await save();
    log(`${variant.name}: built and queried in ${seconds(tv).toFixed(0)} s`);
  }
  const rounds = Math.max(...pending.map((p) => insertRuns(p.plan).length));
  for (let round = 0; round < rounds; round++) {
    for (const { snapshot, plan, result } of pending) {
      const run = insertRuns(plan)[round];
      if (!run) continue;
      const r = await measureInsertRun(snapshot, plan, run.config, run.pass);
      result.inserts.push(r);
      log(
        `${result.name} insert: batch ${r.batch} ${r.order}${r.pass > 1 ? ' (again)' : ''}: ` +
          `${r.rows} rows in ${r.seconds} s, ${r.rows_per_s} rows/s`,
      );
    }
    await save();
  }

  printTables(rows, queryCount, results);
  const out = await save();
  log(`written to ${path.relative(process.cwd(), out) || out} (total ${seconds(t0).toFixed(0)} s)`);
}

await (values.print ? printSaved() : main());
