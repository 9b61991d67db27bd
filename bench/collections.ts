// Vector, hybrid and keyword search under collection filters: does a collection filter, as
// row-level security applies it to the workers' role, keep HNSW recall, and what does it cost?
//
//   npm run bench:collections
//   npm run bench:collections -- --queries 100 --hybrid 30
//   npm run bench:collections -- --no-options       # without the options for small collections
//   npm run bench:collections -- --print            # the tables of the last run
//
// In this process: PGlite + pgvector with the repo's migrations (one database per layout,
// collections/setup.ts), the same ~10,000 chunks in layouts A (1 collection) and B (1 large +
// 49 small), users and questions as collections/layouts.ts describes. Each case runs the query
// route's statement (store/search.ts searchQuery, whose keyword list is migration 0012's
// kbchat_keyword_candidates) in modes vector / hybrid / keyword, two ways:
//   app:   the workers' login (kbchat_worker, member of kbchat_app), kbchat_session first in the
//          same transaction, as the route asks a question without filters: row-level security
//          decides, and the files the user can read (looked up under it) also filter the
//          vector list when they hold few chunks (store/search.ts smallScopeQuery; the option
//          "policy alone" leaves them out, as before the route sent them);
//   owner: the tables' owner (no policies) with the route's explicit `collection_id in (…)` of
//          the same collections, after the same session check: the floor.
// Measured (collections/cases.ts): p50/p95 of the statement alone, recall@10 of vector mode
// against exact search with the same filter, hybrid agreement@10 with the same statement run
// exactly, plans (collections/plans.ts). Then, for layout B under RLS, options for small
// collections (collections/options.ts), and the file list with many invisible files
// (collections/file-list.ts). Results: bench-results/collections.json.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureCase } from './collections/cases.ts';
import { measureFileList } from './collections/file-list.ts';
import { CHUNKS_PER_DOC, makeWorkload } from './collections/layouts.ts';
import type { Scope } from './collections/measure.ts';
import { measureOptions } from './collections/options.ts';
import { printTables, recommend } from './collections/report.ts';
import type { Saved } from './collections/results.ts';
import { EF_SEARCH, loadLayout } from './collections/setup.ts';
import { loadKnowledgeStore } from './nearest-chunks-query.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '60' },
    hybrid: { type: 'string', default: '20' },
    'no-options': { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'bench-results', 'collections.json') },
    print: { type: 'boolean', default: false },
  },
});

function integer(name: 'rows' | 'queries' | 'hybrid', min: number): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return n;
}

const rows = integer('rows', 2_500);
const counts = { vector: integer('queries', 5), hybrid: integer('hybrid', 3) };
// Layout B's 50 collections take whole files, at least 2 small ones each.
if (rows % (CHUNKS_PER_DOC * 10)) throw new Error(`--rows must be a multiple of 500`);

const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const seconds = (since: number) => (performance.now() - since) / 1000;
const ms = (x: number) => x.toFixed(1);

async function main(out: string): Promise<void> {
  const cpus = os.cpus();
  const loadStart = os.loadavg();
  const t0 = performance.now();
  log(
    `collections: ${rows} chunks, ${counts.vector} vector / ${counts.hybrid} hybrid questions per case; ` +
      `load average ${loadStart.map((x) => x.toFixed(2)).join(', ')} on ${cpus.length} CPUs`,
  );
  const store = await loadKnowledgeStore();
  const { searchQuery } = store;
  const workload = makeWorkload({
    docs: rows / CHUNKS_PER_DOC,
    questions: Math.max(counts.vector, counts.hybrid),
    queryTerms: store.queryTerms,
    tsvectorText: store.tsvectorText,
  });
  log(`corpus, vectors and exact neighbours ready in ${seconds(t0).toFixed(1)} s`);

  const saved: Saved = {
    started_at: new Date().toISOString(),
    finished_at: '',
    machine: {
      cpus: cpus.length,
      cpu_model: cpus[0]?.model,
      node: process.version,
      load_average_start: loadStart,
    },
    rows,
    vector_queries: counts.vector,
    hybrid_queries: counts.hybrid,
    settings: `hnsw.ef_search ${EF_SEARCH}, hnsw.iterative_scan relaxed_order, random_page_cost 1.1 (migrations 0004, 0016)`,
    layouts: [],
    cases: workload.cases.map((c) => ({
      key: c.key,
      layout: c.layout,
      description: c.description,
      visible_chunks: c.visible_chunks,
    })),
    results: [],
    options: [],
    file_list: [],
    recommendation: [],
  };
  // Saved after every case: a run stopped part way still leaves what it measured.
  const save = async () => {
    saved.finished_at = new Date().toISOString();
    saved.machine.load_average_end = os.loadavg();
    saved.recommendation = recommend(saved);
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(saved, null, 2)}\n`);
  };

  for (const layout of workload.layouts) {
    const tl = performance.now();
    const loaded = await loadLayout(workload.data(layout));
    const { pg } = loaded;
    try {
      saved.layouts.push({
        name: layout.name,
        description: layout.description,
        collections: layout.collections.map((c) => ({
          name: c.name,
          chunks: c.docs.length * CHUNKS_PER_DOC,
        })),
        load_s: loaded.load_s,
        hnsw_build_s: loaded.hnsw_build_s,
        gin_build_s: loaded.gin_build_s,
      });
      log(
        `layout ${layout.name} (${layout.description}): loaded in ${loaded.load_s} s, ` +
          `HNSW built in ${loaded.hnsw_build_s} s, GIN in ${loaded.gin_build_s} s`,
      );
      const scoped: { c: (typeof workload.cases)[number]; scope: Scope }[] = [];
      for (const c of workload.cases.filter((x) => x.layout === layout.name)) {
        const user = loaded.users.find((u) => u.key === c.user)!;
        const scope: Scope = { user, collections: user.collections };
        scoped.push({ c, scope });
        // The owner first: its keyword top 10s are what the app role's are compared with.
        let ownerKeyword: number[][] | undefined;
        for (const role of ['owner', 'app'] as const) {
          const { keywordIds, ...r } = await measureCase(
            pg,
            searchQuery,
            store,
            c,
            scope,
            role,
            counts,
            workload.sparse,
            ownerKeyword,
          );
          if (role === 'owner') ownerKeyword = keywordIds;
          saved.results.push(r);
          log(
            `${c.key} / ${role}: vector ${r.plans.vector.summary} p50 ${ms(r.vector.latency.median_ms)} ms ` +
              `recall ${r.vector.recall.ties_ok}; hybrid p50 ${ms(r.hybrid.latency.median_ms)} ms ` +
              `agreement ${r.hybrid.agreement_with_exact}; keyword (inside: ${r.keyword_function.keyword}) ` +
              `p50 ${ms(r.keyword.latency.median_ms)} ms`,
          );
        }
        await save();
      }
      if (layout.name === 'B' && !values['no-options']) {
        saved.options = await measureOptions(
          pg,
          searchQuery,
          scoped,
          counts.vector,
          workload.sparse,
          log,
        );
        await save();
      }
    } finally {
      await pg.close();
    }
    log(`layout ${layout.name} done in ${seconds(tl).toFixed(0)} s`);
  }
  saved.file_list = await measureFileList(store.listFiles, log);
  await save();
  printTables(saved);
  log(`written to ${path.relative(process.cwd(), out)} (total ${seconds(t0).toFixed(0)} s)`);
}

if (values.print) {
  let saved: Saved;
  try {
    saved = JSON.parse(await readFile(values.out!, 'utf8')) as Saved;
  } catch {
    throw new Error(`no results in ${values.out}`);
  }
  printTables(saved);
} else {
  await main(values.out!);
}
