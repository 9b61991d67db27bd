// Vector (and hybrid, keyword) search under collection filters: does a collection filter, as
// row-level security applies it to the workers' role, keep HNSW recall, and what does it cost?
//
//   npm run bench:collections
//   npm run bench:collections -- --queries 100 --hybrid 30
//   npm run bench:collections -- --no-options       # without the options for small collections
//   npm run bench:collections -- --print            # the tables of the last run
//
// In this process: PGlite + pgvector with the repo's migrations (one database per layout), the
// same ~10,000 chunks each time (bench/corpus.ts texts, the offline model's 1536-dim vectors,
// the worker's search terms), indexes built after the load:
//   layout A: every file in one collection;
//   layout B: the same files over 50 collections: one large (40 % of the chunks) and 49 small
//             (2–3 files, 100–150 chunks each).
// Each case is a user and the questions they ask: a member of the one collection (A); of the
// large one, of one small one (questions about its chunks, and questions about chunks outside
// it: the worst case for a filter after the index), of all 50 (B). Each runs the query route's
// statement (store/search.ts searchQuery, modes vector / hybrid / keyword) two ways:
//   app:   the workers' login (kbchat_worker, member of kbchat_app), kbchat_session first in the
//          same transaction, no explicit filter: row-level security alone decides;
//   owner: the tables' owner (no policies) with the route's explicit `collection_id in (…)` of
//          the same collections: the floor.
// Measured: p50/p95 of the statement alone, recall@10 of vector mode against exact search with
// the same filter (exact neighbours computed in JS from the stored float32 vectors, distance
// ties with the 10th counted), hybrid agreement@10 with the same statement run exactly
// (`enable_indexscan = off`: no HNSW, so the vector list is a full sort), and the plan of the
// first question with EXPLAIN (ANALYZE, BUFFERS). Then, for layout B under RLS, the options for
// small collections: strict_order, hnsw.max_scan_tuples, a larger ef_search, a btree on
// chunks(collection_id), the route's explicit filter.
// Results: bench-results/collections.json.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { embedText } from '../dev/stack/offline-model/lexical.ts';
import { makeCorpus, makeQuestions, rng, type CorpusChunk } from './corpus.ts';
import {
  denseUnit,
  embedSparse,
  exactNeighbours,
  toSparse,
  type Sparse,
} from './index-design/vectors.ts';
import {
  explainAnalyze,
  overlap,
  planShape,
  timedRuns,
  vectorRecall,
  type PlanShape,
  type Question,
  type Recall,
  type Role,
  type RunOptions,
  type Scope,
} from './collections/measure.ts';
import {
  createKeywordFunction,
  keywordBody,
  keywordThroughFunction,
} from './collections/keyword-function.ts';
import { EF_SEARCH, loadLayout, type LayoutCollection } from './collections/setup.ts';
import { loadKnowledgeStore, type SearchMode, type SearchQuery } from './nearest-chunks-query.ts';
import type { Stats } from './stats.ts';
import { table } from './table.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHUNKS_PER_DOC = 50;
const DIMENSIONS = 1536;
const COLLECTIONS_B = 50;
const LARGE_SHARE = 0.4;

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
const vectorQueries = integer('queries', 5);
const hybridQueries = integer('hybrid', 3);
if (rows % (CHUNKS_PER_DOC * 10)) throw new Error(`--rows must be a multiple of 500`);
const docs = rows / CHUNKS_PER_DOC;

const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const seconds = (since: number) => (performance.now() - since) / 1000;

// ---------------------------------------------------------------------------------------------
// Workload: chunks, layouts, cases, questions, exact neighbours.

interface Case {
  key: string;
  layout: 'A' | 'B';
  user: string;
  description: string;
  /** Documents the user can read (exact neighbours are among these). */
  docs: Set<number>;
  visible_chunks: number;
  questions: Question[];
  exact: ReturnType<typeof exactNeighbours>;
}

interface Layout {
  name: 'A' | 'B';
  description: string;
  collections: LayoutCollection[];
  users: { key: string; collections: string[] }[];
}

function shuffled<T>(items: T[], seed: number): T[] {
  const random = rng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function makeLayouts(): Layout[] {
  const all = Array.from({ length: docs }, (_, d) => d);
  const a: LayoutCollection = { id: crypto.randomUUID(), name: 'everything', docs: all };
  // B: a seeded shuffle of the documents, so that no collection is a run of insertion order.
  const order = shuffled(all, 4_242);
  const largeDocs = Math.round(docs * LARGE_SHARE);
  const large: LayoutCollection = {
    id: crypto.randomUUID(),
    name: 'large',
    docs: order.slice(0, largeDocs).sort((x, y) => x - y),
  };
  const small: LayoutCollection[] = Array.from({ length: COLLECTIONS_B - 1 }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `small-${i + 1}`,
    docs: [],
  }));
  order.slice(largeDocs).forEach((d, i) => small[i % small.length]!.docs.push(d));
  // The measured small collection: one of the smallest that has files.
  const measuredSmall = small
    .filter((c) => c.docs.length > 0)
    .sort((x, y) => x.docs.length - y.docs.length)[0]!;
  return [
    {
      name: 'A',
      description: `all ${rows} chunks in 1 collection`,
      collections: [a],
      users: [{ key: 'one', collections: [a.id] }],
    },
    {
      name: 'B',
      description:
        `the same chunks in ${COLLECTIONS_B} collections: 1 large (${largeDocs * CHUNKS_PER_DOC} chunks), ` +
        `${COLLECTIONS_B - 1} small (${Math.min(...small.map((c) => c.docs.length)) * CHUNKS_PER_DOC}–` +
        `${Math.max(...small.map((c) => c.docs.length)) * CHUNKS_PER_DOC} chunks)`,
      collections: [large, ...small],
      users: [
        { key: 'large', collections: [large.id] },
        { key: 'small', collections: [measuredSmall.id] },
        { key: 'all', collections: [large.id, ...small.map((c) => c.id)] },
      ],
    },
  ];
}

function makeQuestionSet(
  chunks: readonly CorpusChunk[],
  words: readonly string[],
  count: number,
  seed: number,
  queryTerms: (text: string) => string[],
): Question[] {
  return makeQuestions(chunks, words, count, seed).map(({ text }) => {
    const vector = embedText(text, DIMENSIONS);
    return {
      text,
      vector,
      unit: denseUnit(toSparse(vector), DIMENSIONS),
      terms: queryTerms(text),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Results.

interface VectorResult {
  latency: Stats;
  recall: Recall;
}
interface HybridResult {
  latency: Stats;
  /** Share of the exact run's top 10 (same statement, same role, enable_indexscan = off). */
  agreement_with_exact: number;
}
interface KeywordResult {
  latency: Stats;
  /** Share of the owner's keyword top 10 that this role's run also returns (idf differs). */
  agreement_with_owner: number | null;
}
interface CaseRoleResult {
  case: string;
  layout: 'A' | 'B';
  role: Role;
  visible_chunks: number;
  vector: VectorResult;
  hybrid: HybridResult;
  keyword: KeywordResult;
  plans: Record<SearchMode, PlanShape>;
  plan_text: Record<SearchMode, string>;
}
interface OptionResult {
  option: string;
  detail: string;
  case: string;
  mode: SearchMode;
  plan: PlanShape;
  latency: Stats;
  /** Vector mode only. */
  recall: Recall | null;
}
interface KeywordFunctionResult {
  case: string;
  latency: Stats;
  /** Share of the owner's keyword top 10 (same idf: the function counts over all chunks). */
  agreement_with_owner: number;
  /** The function body's plan, run as its owner. */
  plan: PlanShape;
  plan_text: string;
}
interface LayoutResult {
  name: string;
  description: string;
  collections: { name: string; chunks: number }[];
  load_s: number;
  hnsw_build_s: number;
  gin_build_s: number;
}
interface Saved {
  started_at: string;
  finished_at: string;
  machine: Record<string, unknown>;
  rows: number;
  vector_queries: number;
  hybrid_queries: number;
  settings: string;
  layouts: LayoutResult[];
  cases: { key: string; layout: string; description: string; visible_chunks: number }[];
  results: CaseRoleResult[];
  options: OptionResult[];
  keyword_function: KeywordFunctionResult[];
  recommendation: string[];
}

// ---------------------------------------------------------------------------------------------
// Measurement.

async function measureCase(
  pg: PGlite,
  searchQuery: SearchQuery,
  c: Case,
  scope: Scope,
  role: Role,
  vectors: Sparse[],
  ownerKeyword: number[][] | undefined,
): Promise<CaseRoleResult & { keywordIds: number[][] }> {
  const opts: RunOptions = { role };
  const vq = c.questions.slice(0, vectorQueries);
  const hq = c.questions.slice(0, hybridQueries);
  const vector = await timedRuns(pg, searchQuery, scope, vq, 'vector', opts);
  const recall = vectorRecall(vector.ids, c.exact, vectors, vq);
  const hybrid = await timedRuns(pg, searchQuery, scope, hq, 'hybrid', opts);
  const hybridExact = await timedRuns(pg, searchQuery, scope, hq, 'hybrid', {
    ...opts,
    settings: ['enable_indexscan = off'],
  });
  const keyword = await timedRuns(pg, searchQuery, scope, hq, 'keyword', opts);
  const plans = {} as Record<SearchMode, PlanShape>;
  const planText = {} as Record<SearchMode, string>;
  for (const mode of ['vector', 'hybrid', 'keyword'] as const) {
    const { shape, plan } = await explainAnalyze(
      pg,
      searchQuery,
      scope,
      c.questions[0]!,
      mode,
      opts,
    );
    plans[mode] = shape;
    planText[mode] = plan;
  }
  return {
    case: c.key,
    layout: c.layout,
    role,
    visible_chunks: c.visible_chunks,
    vector: { latency: vector.latency, recall },
    hybrid: {
      latency: hybrid.latency,
      agreement_with_exact: overlap(hybrid.ids, hybridExact.ids),
    },
    keyword: {
      latency: keyword.latency,
      agreement_with_owner: ownerKeyword ? overlap(keyword.ids, ownerKeyword) : null,
    },
    plans,
    plan_text: planText,
    keywordIds: keyword.ids,
  };
}

interface OptionSpec {
  option: string;
  detail: string;
  settings?: string[];
  explicitFilter?: boolean;
  btree?: boolean;
  rewrite?: (text: string) => string;
  /** Default: vector. */
  modes?: SearchMode[];
}

const OPTIONS: OptionSpec[] = [
  {
    option: 'served',
    detail: `relaxed_order, ef_search ${EF_SEARCH}, max_scan_tuples 20000 (default)`,
  },
  {
    option: 'exact',
    detail: 'enable_indexscan = off: no HNSW, every visible chunk sorted by distance',
    settings: ['enable_indexscan = off'],
  },
  {
    option: 'strict_order',
    detail: 'hnsw.iterative_scan = strict_order',
    settings: ['hnsw.iterative_scan = strict_order'],
  },
  {
    option: 'max_scan_tuples 100k',
    detail: 'hnsw.max_scan_tuples = 100000',
    settings: ['hnsw.max_scan_tuples = 100000'],
  },
  {
    option: 'ef_search 400',
    detail: 'hnsw.ef_search = 400',
    settings: ['hnsw.ef_search = 400'],
  },
  {
    option: 'fused materialized',
    detail:
      'the statement with `fused as materialized`: its id is a plain column, so the final join ' +
      'to chunks may use the primary key under RLS (COALESCE in the join key is not leakproof)',
    rewrite: (text) => text.replace('fused as (', 'fused as materialized ('),
    modes: ['vector', 'hybrid'],
  },
  {
    option: 'explicit filter',
    detail: "the route's collection_id in (…) besides the policy",
    explicitFilter: true,
  },
  {
    option: 'btree',
    detail: 'CREATE INDEX chunks_collection_id_idx ON chunks (collection_id)',
    btree: true,
  },
  {
    option: 'btree + explicit filter',
    detail: "the btree and the route's collection_id in (…)",
    btree: true,
    explicitFilter: true,
  },
];

async function measureOptions(
  pg: PGlite,
  searchQuery: SearchQuery,
  cases: { c: Case; scope: Scope }[],
  vectors: Sparse[],
): Promise<OptionResult[]> {
  const out: OptionResult[] = [];
  let btree = false;
  for (const spec of OPTIONS) {
    if (spec.btree && !btree) {
      await pg.exec(
        'CREATE INDEX chunks_collection_id_idx ON chunks (collection_id); ANALYZE chunks',
      );
      btree = true;
    }
    for (const mode of spec.modes ?? ['vector']) {
      for (const { c, scope } of cases) {
        const opts: RunOptions = {
          role: 'app',
          ...(spec.settings ? { settings: spec.settings } : {}),
          ...(spec.explicitFilter ? { explicitFilter: true } : {}),
          ...(spec.rewrite ? { rewrite: spec.rewrite } : {}),
        };
        const qs = c.questions.slice(0, mode === 'vector' ? vectorQueries : hybridQueries);
        const runs = await timedRuns(pg, searchQuery, scope, qs, mode, opts);
        const { shape } = await explainAnalyze(pg, searchQuery, scope, qs[0]!, mode, opts);
        const r: OptionResult = {
          option: spec.option,
          detail: spec.detail,
          case: c.key,
          mode,
          plan: shape,
          latency: runs.latency,
          recall: mode === 'vector' ? vectorRecall(runs.ids, c.exact, vectors, qs) : null,
        };
        out.push(r);
        log(
          `option ${spec.option} / ${c.key} / ${mode}: ${shape.summary}, p50 ${ms(r.latency.median_ms)} ms, ` +
            `p95 ${ms(r.latency.p95_ms)} ms, recall ${r.recall?.ties_ok ?? '—'}`,
        );
      }
    }
  }
  if (btree) await pg.exec('DROP INDEX chunks_collection_id_idx; ANALYZE chunks');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report.

const ms = (x: number) => x.toFixed(1);
const roleLabel = (r: Role) => (r === 'app' ? 'app (RLS)' : 'owner + filter');

function printTables(saved: Saved): void {
  console.log(
    `\nCollections: ${saved.rows} chunks (offline-model vectors), ${saved.vector_queries} vector / ` +
      `${saved.hybrid_queries} hybrid and keyword questions per case; ${saved.settings}`,
  );
  console.log(
    table(
      ['layout', 'collections', 'load s', 'hnsw build s', 'gin build s'],
      saved.layouts.map((l) => [
        l.name,
        l.description,
        String(l.load_s),
        String(l.hnsw_build_s),
        String(l.gin_build_s),
      ]),
    ),
  );
  console.log(
    '\nVector mode (top 10): latency of the statement; recall@10 against exact search with the same ' +
      'filter (ties with the 10th count); worst = the worst single question\n',
  );
  console.log(
    table(
      [
        'case',
        'role',
        'visible',
        'plan (1st question)',
        'p50 ms',
        'p95 ms',
        'recall@10',
        'ids',
        'worst',
        'short',
      ],
      saved.results.map((r) => [
        r.case,
        roleLabel(r.role),
        String(r.visible_chunks),
        r.plans.vector.summary,
        ms(r.vector.latency.median_ms),
        ms(r.vector.latency.p95_ms),
        r.vector.recall.ties_ok.toFixed(3),
        r.vector.recall.ids.toFixed(3),
        r.vector.recall.worst.toFixed(2),
        String(r.vector.recall.short_results),
      ]),
    ),
  );
  console.log(
    '\nHybrid mode: agreement@10 = share of the top 10 of the same statement run exactly ' +
      '(same role, enable_indexscan = off)\n',
  );
  console.log(
    table(
      ['case', 'role', 'plan (1st question)', 'p50 ms', 'p95 ms', 'agreement@10'],
      saved.results.map((r) => [
        r.case,
        roleLabel(r.role),
        r.plans.hybrid.summary,
        ms(r.hybrid.latency.median_ms),
        ms(r.hybrid.latency.p95_ms),
        r.hybrid.agreement_with_exact.toFixed(3),
      ]),
    ),
  );
  console.log(
    '\nKeyword mode: the keyword list (and its df counts) under RLS vs as owner; seq scans = ' +
      'Seq Scan nodes on chunks (loops); agreement = share of the owner’s top 10\n',
  );
  console.log(
    table(
      [
        'case',
        'role',
        'keyword leg',
        'seq scans (loops)',
        'shared hit',
        'exec ms',
        'p50 ms',
        'p95 ms',
        'agr. owner',
      ],
      saved.results.map((r) => [
        r.case,
        roleLabel(r.role),
        r.plans.keyword.keyword,
        `${r.plans.keyword.chunk_seq_scans} (${r.plans.keyword.chunk_seq_scan_loops})`,
        String(r.plans.keyword.shared_hit ?? ''),
        ms(r.plans.keyword.execution_ms ?? NaN),
        ms(r.keyword.latency.median_ms),
        ms(r.keyword.latency.p95_ms),
        r.keyword.agreement_with_owner === null ? '—' : r.keyword.agreement_with_owner.toFixed(3),
      ]),
    ),
  );
  if (saved.keyword_function.length) {
    console.log(
      '\nKeyword mode through a SECURITY DEFINER function (prototype in the bench database: the ' +
        'keyword list with the policy’s collection filter inside, run as its owner; app role)\n',
    );
    console.log(
      table(
        ['case', 'keyword leg (inside)', 'seq scans', 'p50 ms', 'p95 ms', 'agr. owner'],
        saved.keyword_function.map((k) => [
          k.case,
          k.plan.keyword,
          `${k.plan.chunk_seq_scans} (${k.plan.chunk_seq_scan_loops})`,
          ms(k.latency.median_ms),
          ms(k.latency.p95_ms),
          k.agreement_with_owner.toFixed(3),
        ]),
      ),
    );
  }
  console.log('\nEXPLAIN (ANALYZE, BUFFERS) of the first question, vector and hybrid\n');
  console.log(
    table(
      [
        'case',
        'role',
        'mode',
        'hnsw',
        'removed by filter',
        'seq scans',
        'final join',
        'shared hit',
        'exec ms',
      ],
      saved.results.flatMap((r) =>
        (['vector', 'hybrid'] as const).map((mode) => {
          const p = r.plans[mode];
          return [
            r.case,
            roleLabel(r.role),
            mode,
            p.hnsw ? 'yes' : p.collection_btree ? 'btree' : 'no',
            String(p.hnsw_removed_by_filter ?? '—'),
            `${p.chunk_seq_scans} (${p.chunk_seq_scan_loops})`,
            p.final_join,
            String(p.shared_hit ?? ''),
            ms(p.execution_ms ?? NaN),
          ];
        }),
      ),
    ),
  );
  if (saved.options.length) {
    console.log(
      '\nOptions for filtered collections (layout B, app role under RLS; exec ms: EXPLAIN ANALYZE ' +
        'of the 1st question)\n',
    );
    console.log(
      table(
        [
          'option',
          'case',
          'mode',
          'plan (1st question)',
          'final join',
          'exec ms',
          'p50 ms',
          'p95 ms',
          'recall@10',
          'worst',
        ],
        saved.options.map((o) => [
          o.option,
          o.case,
          o.mode,
          o.plan.summary,
          o.plan.final_join ?? '',
          ms(o.plan.execution_ms ?? NaN),
          ms(o.latency.median_ms),
          ms(o.latency.p95_ms),
          o.recall ? o.recall.ties_ok.toFixed(3) : '—',
          o.recall ? o.recall.worst.toFixed(2) : '—',
        ]),
      ),
    );
    console.log('\n' + OPTIONS.map((o) => `${o.option}: ${o.detail}`).join('\n'));
  }
  if (saved.recommendation.length) {
    console.log('\nFrom these numbers:\n' + saved.recommendation.map((l) => `- ${l}`).join('\n'));
  }
}

/** What the numbers say, computed (not written in advance). */
function recommend(saved: Saved): string[] {
  const out: string[] = [];
  const app = saved.results.filter((r) => r.role === 'app');
  const hnswUnderRls = app.every((r) => r.plans.vector.hnsw);
  out.push(
    hnswUnderRls
      ? 'vector mode under RLS uses the HNSW index in every case (the policy is a filter on the index scan)'
      : `vector mode under RLS does not use HNSW in: ${app
          .filter((r) => !r.plans.vector.hnsw)
          .map((r) => r.case)
          .join(', ')}`,
  );
  const baseline = saved.results.find((r) => r.layout === 'A' && r.role === 'owner');
  if (baseline) {
    out.push(
      `baseline (layout A, owner, no effective filter): recall@10 ${baseline.vector.recall.ties_ok}; ` +
        `under RLS: ${app.map((r) => `${r.case} ${r.vector.recall.ties_ok}`).join(', ')}`,
    );
  }
  const low = app.filter((r) => r.vector.recall.ties_ok < 0.99);
  out.push(
    low.length
      ? `recall@10 below 0.99 under RLS: ${low.map((r) => `${r.case} ${r.vector.recall.ties_ok}`).join(', ')}`
      : 'recall@10 ≥ 0.99 under RLS in every case',
  );
  const kwApp = app.map((r) => r.plans.keyword.keyword);
  const kwOwner = saved.results
    .filter((r) => r.role === 'owner')
    .map((r) => r.plans.keyword.keyword);
  out.push(
    `keyword leg: under RLS ${[...new Set(kwApp)].join('/')}, as owner ${[...new Set(kwOwner)].join('/')}`,
  );
  for (const r of app) {
    const owner = saved.results.find((o) => o.case === r.case && o.role === 'owner');
    if (!owner) continue;
    out.push(
      `${r.case}: keyword p50 ${ms(r.keyword.latency.median_ms)} ms under RLS vs ${ms(owner.keyword.latency.median_ms)} ms as owner; ` +
        `hybrid ${ms(r.hybrid.latency.median_ms)} vs ${ms(owner.hybrid.latency.median_ms)} ms; ` +
        `vector ${ms(r.vector.latency.median_ms)} vs ${ms(owner.vector.latency.median_ms)} ms`,
    );
  }
  for (const k of saved.keyword_function) {
    const rls = saved.results.find((r) => r.case === k.case && r.role === 'app');
    if (!rls) continue;
    out.push(
      `${k.case}: keyword through a SECURITY DEFINER function p50 ${ms(k.latency.median_ms)} ms ` +
        `(${k.plan.keyword}) vs ${ms(rls.keyword.latency.median_ms)} ms under RLS (${rls.plans.keyword.keyword})`,
    );
  }
  const byCase = new Map<string, OptionResult[]>();
  for (const o of saved.options) {
    if (o.mode === 'vector') byCase.set(o.case, [...(byCase.get(o.case) ?? []), o]);
  }
  for (const [c, list] of byCase) {
    const served = list.find((o) => o.option === 'served');
    const ok = list.filter((o) => (o.recall?.ties_ok ?? 0) >= 0.99);
    const best = ok.sort((x, y) => x.latency.p95_ms - y.latency.p95_ms)[0];
    out.push(
      best
        ? `${c}: fastest option with recall ≥ 0.99: ${best.option} (p95 ${ms(best.latency.p95_ms)} ms, recall ${best.recall?.ties_ok}); served: p95 ${ms(served?.latency.p95_ms ?? NaN)} ms, recall ${served?.recall?.ties_ok}`
        : `${c}: no option reaches recall 0.99`,
    );
  }
  return out;
}

async function readPrevious(file: string): Promise<Saved | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Saved;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const cpus = os.cpus();
  const loadStart = os.loadavg();
  const t0 = performance.now();
  log(
    `collections: ${rows} chunks, ${vectorQueries} vector / ${hybridQueries} hybrid questions per case; ` +
      `load average ${loadStart.map((x) => x.toFixed(2)).join(', ')} on ${cpus.length} CPUs`,
  );
  const store = await loadKnowledgeStore();
  const { searchQuery, queryTerms, tsvectorText } = store;
  const corpus = makeCorpus({ docs, chunksPerDoc: CHUNKS_PER_DOC });
  const chunks = corpus.chunks;
  const sparse = chunks.map((c) => embedSparse(c.content, DIMENSIONS));
  const dense = (i: number) => {
    const out = new Float32Array(DIMENSIONS);
    sparse[i]!.idx.forEach((d, k) => (out[d] = sparse[i]!.raw[k]!));
    return out;
  };
  const terms = chunks.map((c) => tsvectorText(c.content));
  const layouts = makeLayouts();
  const fileIds = Array.from({ length: docs }, () => crypto.randomUUID() as string);

  const questionCount = Math.max(vectorQueries, hybridQueries);
  const docOf = (i: number) => chunks[i]!.doc;
  const makeCase = (
    key: string,
    layout: Layout,
    user: string,
    description: string,
    from: 'inside' | 'outside',
    seed: number,
  ): Case => {
    const ids = new Set(layout.users.find((u) => u.key === user)!.collections);
    const docSet = new Set(layout.collections.filter((c) => ids.has(c.id)).flatMap((c) => c.docs));
    const pool = chunks.filter((c) => docSet.has(c.doc) === (from === 'inside'));
    const questions = makeQuestionSet(pool, corpus.words, questionCount, seed, queryTerms);
    const allowed = questions.map(() => docSet);
    return {
      key,
      layout: layout.name,
      user,
      description,
      docs: docSet,
      visible_chunks: docSet.size * CHUNKS_PER_DOC,
      questions,
      exact: exactNeighbours(
        sparse,
        docOf,
        questions.map((q) => q.unit),
        10,
        docSet.size === docs ? undefined : allowed,
      ),
    };
  };
  const [layoutA, layoutB] = layouts as [Layout, Layout];
  const cases: Case[] = [
    makeCase('A: the 1 collection', layoutA, 'one', 'member of the one collection', 'inside', 11),
    makeCase('B: large (40%)', layoutB, 'large', 'member of the large collection', 'inside', 12),
    makeCase(
      'B: small',
      layoutB,
      'small',
      'member of one small collection; questions about it',
      'inside',
      13,
    ),
    makeCase(
      'B: small, off-topic',
      layoutB,
      'small',
      'member of one small collection; questions about chunks outside it',
      'outside',
      14,
    ),
    // The same questions as case A: the same visible chunks, 50 collections instead of 1.
    makeCase('B: all 50', layoutB, 'all', 'member of all 50 collections', 'inside', 11),
  ];
  log(`corpus, vectors and exact neighbours ready in ${seconds(t0).toFixed(1)} s`);

  const saved: Saved = {
    started_at: startedAt,
    finished_at: '',
    machine: {
      cpus: cpus.length,
      cpu_model: cpus[0]?.model,
      node: process.version,
      load_average_start: loadStart,
    },
    rows,
    vector_queries: vectorQueries,
    hybrid_queries: hybridQueries,
    settings: `hnsw.ef_search ${EF_SEARCH}, hnsw.iterative_scan relaxed_order, random_page_cost 1.1 (migration 0004)`,
    layouts: [],
    cases: cases.map((c) => ({
      key: c.key,
      layout: c.layout,
      description: c.description,
      visible_chunks: c.visible_chunks,
    })),
    results: [],
    options: [],
    keyword_function: [],
    recommendation: [],
  };
  const save = async () => {
    saved.finished_at = new Date().toISOString();
    saved.machine.load_average_end = os.loadavg();
    saved.recommendation = recommend(saved);
    await mkdir(path.dirname(values.out!), { recursive: true });
    await writeFile(values.out!, `${JSON.stringify(saved, null, 2)}\n`);
  };

  for (const layout of layouts) {
    const tl = performance.now();
    const loaded = await loadLayout({
      collections: layout.collections,
      users: layout.users,
      fileIds,
      chunks,
      values: dense,
      terms,
    });
    const { pg } = loaded;
    try {
      await createKeywordFunction(pg, store.COMMON_TERM_SHARE, store.COMMON_TERM_MIN_ROWS);
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
      const scoped: { c: Case; scope: Scope }[] = [];
      for (const c of cases.filter((x) => x.layout === layout.name)) {
        const user = loaded.users.find((u) => u.key === c.user)!;
        const scope: Scope = { user, collections: user.collections };
        scoped.push({ c, scope });
        let ownerKeyword: number[][] | undefined;
        for (const role of ['owner', 'app'] as const) {
          const { keywordIds, ...r } = await measureCase(
            pg,
            searchQuery,
            c,
            scope,
            role,
            sparse,
            ownerKeyword,
          );
          if (role === 'owner') ownerKeyword = keywordIds;
          else {
            const kf = await keywordThroughFunction(
              pg,
              scope,
              c.questions.slice(0, hybridQueries),
              store.quoteLexeme,
              keywordBody(store.COMMON_TERM_SHARE, store.COMMON_TERM_MIN_ROWS),
            );
            const result: KeywordFunctionResult = {
              case: c.key,
              latency: kf.latency,
              agreement_with_owner: overlap(kf.ids, ownerKeyword!),
              plan: planShape(kf.plan, 'keyword'),
              plan_text: kf.plan,
            };
            saved.keyword_function.push(result);
            log(
              `${c.key} / keyword through a SECURITY DEFINER function: ${result.plan.keyword}, ` +
                `p50 ${ms(kf.latency.median_ms)} ms, agreement with owner ${result.agreement_with_owner}`,
            );
          }
          saved.results.push(r);
          log(
            `${c.key} / ${roleLabel(role)}: vector ${r.plans.vector.summary} p50 ${ms(r.vector.latency.median_ms)} ms ` +
              `recall ${r.vector.recall.ties_ok}; hybrid p50 ${ms(r.hybrid.latency.median_ms)} ms ` +
              `agreement ${r.hybrid.agreement_with_exact}; keyword ${r.plans.keyword.keyword} ` +
              `p50 ${ms(r.keyword.latency.median_ms)} ms`,
          );
        }
        await save();
      }
      if (layout.name === 'B' && !values['no-options']) {
        saved.options = await measureOptions(pg, searchQuery, scoped, sparse);
        await save();
      }
    } finally {
      await pg.close();
    }
    log(`layout ${layout.name} done in ${seconds(tl).toFixed(0)} s`);
  }
  await save();
  printTables(saved);
  log(
    `written to ${path.relative(process.cwd(), values.out!)} (total ${seconds(t0).toFixed(0)} s)`,
  );
}

if (values.print) {
  const saved = await readPrevious(values.out!);
  if (!saved) throw new Error(`no results in ${values.out}`);
  printTables(saved);
} else {
  await main();
}
