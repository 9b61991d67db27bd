// npm run bench:keeping (issue 34, "Measured"): keeping a knowledge base of 500 files and
// 100,000 chunks in one collection (the shared one). Starts an isolated local stack, seeds the
// files and chunks straight into its database (bench/paths/seed-chunks.ts: 200 chunks a file),
// then times, sequentially:
// - GET /moduleknowledge/files at the first, middle and last page (newest first), the last
//   page sorted by name, and a name search: p50/p95 next to the floor, the batch's three
//   statements (page, total, counts per status) run straight on an open pg connection;
// - a chunk corrected with PUT /moduleknowledge/chunk, then the time until a query (keyword and
//   hybrid) finds its new text.
// Targets: the list p50 ≤ 50 ms at any page and for a search; a correction searchable ≤ 5 s.
// Results: bench-results/keeping.json and a table.
//
//   node bench/keeping.ts [--samples 50] [--edits 10]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../dev/stack/seed.ts';
import { devDatabaseSettings } from './eval/exact-search.ts';
import { loadKnowledgeStore } from './nearest-chunks-query.ts';
import { claimOf } from './paths/database-floors.ts';
import { seedChunks } from './paths/seed-chunks.ts';
import { login } from './paths/service-calls.ts';
import { stats, type Stats } from './stats.ts';
import { table } from './table.ts';

const FILES = 500;
const CHUNKS = 100_000;
const PAGE_SIZE = 50;
const SHARED = '00000000-0000-0000-0000-000000000000';
const LIST_TARGET_MS = 50;
const SEARCHABLE_TARGET_MS = 5_000;
const WARMUP = 5;

const { values: args } = parseArgs({
  options: { samples: { type: 'string', default: '50' }, edits: { type: 'string', default: '10' } },
});
const SAMPLES = Number(args.samples);
const EDITS = Number(args.edits);

interface Statement {
  text: string;
  values: unknown[];
}
type Built = { toSQL(): { sql: string; params: unknown[] } };
interface FileListStore {
  fileListPage(db: unknown, page: Record<string, unknown>): Built;
  fileListTotal(db: unknown, filter: Record<string, unknown>): Built;
  fileStatusCounts(db: unknown, collectionId: string): Built;
}

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.error(`keeping: ${message}`);
const round = (x: number) => Math.round(x * 100) / 100;

const dataDir = await mkdtemp(path.join(tmpdir(), 'kbchat-bench-keeping-'));
log(`starting an isolated stack (data in ${dataDir})`);
const dev = await launchDev({ dataDir, env: { LOG_LEVEL: 'warn', OCR: 'off' } });
const db = new pg.Client({ connectionString: (await devDatabaseSettings(dataDir)).url });
try {
  await db.connect();
  const token = await login(dev.baseUrl, LOCAL_ADMIN.username, LOCAL_ADMIN.password);
  const claim = await claimOf(db, LOCAL_ADMIN.username);
  log(`seeding ${FILES} files of ${CHUNKS / FILES} chunks`);
  const seeded = await seedChunks(db, {
    chunks: CHUNKS,
    chunksPerFile: CHUNKS / FILES,
    uploader: { id: claim.userId, username: LOCAL_ADMIN.username },
  });
  log(
    `seeded in ${round(seeded.embed_s + seeded.insert_s + seeded.index_build_s)} s ` +
      `(HNSW index ${round(seeded.index_build_s)} s)`,
  );

  // The worker's own statements, rendered as it sends them (the floor runs them as is).
  await loadKnowledgeStore(); // registers the resolve hooks workers/ needs
  const store = (await import(
    pathToFileURL(path.join(root, 'workers/knowledge/src/store/file-list.ts')).href
  )) as FileListStore;
  const mock = drizzle.mock();
  const render = (built: Built): Statement => {
    const { sql, params } = built.toSQL();
    return { text: sql, values: params };
  };
  const floorOf = (params: ListParams): Statement[] => {
    const filter = { collectionId: SHARED, q: params.q };
    const sort = params.sort ?? 'created_at';
    return [
      render(
        store.fileListPage(mock, {
          ...filter,
          sort,
          order: sort === 'created_at' ? 'desc' : 'asc',
          limit: PAGE_SIZE,
          offset: ((params.page ?? 1) - 1) * PAGE_SIZE,
        }),
      ),
      render(store.fileListTotal(mock, filter)),
      render(store.fileStatusCounts(mock, SHARED)),
    ];
  };

  const [firstPage] = floorOf({ page: 1 });
  const { rows: planRows } = await db.query<{ 'QUERY PLAN': string }>(
    `explain ${firstPage!.text}`,
    firstPage!.values,
  );
  const plan = planRows.map((r) => r['QUERY PLAN']).join('\n');
  const touchesChunks = /\bchunks\b/.test(plan);
  log(`the page statement's plan ${touchesChunks ? 'READS CHUNKS' : 'reads files alone'}`);

  const total = await listFiles(dev.baseUrl, token, { page: 1 });
  const lastPage = Math.ceil(total.total / PAGE_SIZE);
  const cases: [string, ListParams, (n: number) => boolean][] = [
    ['first page', { page: 1 }, (n) => n === PAGE_SIZE],
    ['middle page', { page: Math.ceil(lastPage / 2) }, (n) => n === PAGE_SIZE],
    ['last page', { page: lastPage }, (n) => n > 0],
    ['last page, by name', { page: lastPage, sort: 'name' }, (n) => n > 0],
    ['name search "seeded-42"', { q: 'seeded-42' }, (n) => n === 11],
  ];
  const lists = [];
  for (const [name, params, expected] of cases) {
    log(`files, ${name} (${SAMPLES} with their floors)`);
    const route: number[] = [];
    const floor: number[] = [];
    const statements = floorOf(params);
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const t0 = performance.now();
      const answer = await listFiles(dev.baseUrl, token, params);
      const t1 = performance.now();
      for (const statement of statements) await db.query(statement.text, statement.values);
      const t2 = performance.now();
      if (!expected(answer.items)) throw new Error(`${name}: ${answer.items} files listed`);
      if (i >= WARMUP) {
        route.push(t1 - t0);
        floor.push(t2 - t1);
      }
    }
    const latency = stats(route);
    lists.push({
      case: name,
      params,
      latency,
      floor: stats(floor),
      met: latency.median_ms <= LIST_TARGET_MS,
    });
  }

  log(`chunk corrections (${EDITS}), each until a query finds its new text`);
  const { rows: picked } = await db.query<{ id: string }>(
    `select id from chunks order by random() limit ${EDITS}`,
  );
  const edits: { put: number[]; keyword: number[]; hybrid: number[] } = {
    put: [],
    keyword: [],
    hybrid: [],
  };
  for (const { id } of picked) {
    const word = `Keepword${crypto.randomUUID().slice(0, 8)}`;
    const text = `${word} corrected by the keeping benchmark, with the words a keeper typed.`;
    const t0 = performance.now();
    await call(dev.baseUrl, token, '/moduleknowledge/chunk', 'PUT', { id: Number(id), text });
    edits.put.push(performance.now() - t0);
    for (const mode of ['keyword', 'hybrid'] as const) {
      edits[mode].push(await untilFound(dev.baseUrl, token, word, Number(id), mode, t0));
    }
  }
  const searchable = {
    put: stats(edits.put),
    keyword: stats(edits.keyword),
    hybrid: stats(edits.hybrid),
  };

  const results = {
    seed: {
      files: seeded.files,
      chunks: seeded.chunks.length,
      listed: total.total,
      seconds: round(seeded.embed_s + seeded.insert_s + seeded.index_build_s + seeded.analyze_s),
    },
    page_plan: { reads_chunks: touchesChunks, plan },
    files_list: lists,
    chunk_edit: {
      ...searchable,
      target_ms: SEARCHABLE_TARGET_MS,
      met: searchable.hybrid.max_ms <= SEARCHABLE_TARGET_MS,
    },
  };
  await mkdir(path.join(root, 'bench-results'), { recursive: true });
  await writeFile(
    path.join(root, 'bench-results/keeping.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  const ms = (s: Stats) => [s.median_ms.toFixed(1), s.p95_ms.toFixed(1)];
  console.log(
    `keeping: GET /moduleknowledge/files, ${seeded.files} files, ${seeded.chunks.length} chunks, ` +
      `pages of ${PAGE_SIZE} (${SAMPLES} samples; floor = the batch's 3 statements on pg)\n` +
      table(
        ['case', 'p50 ms', 'p95 ms', 'floor p50', 'floor p95', `p50 ≤ ${LIST_TARGET_MS}`],
        lists.map((l) => [l.case, ...ms(l.latency), ...ms(l.floor), l.met ? 'yes' : 'NO']),
      ) +
      `\nkeeping: a chunk corrected (${EDITS}), ms from the PUT until a query finds the new text\n` +
      table(
        ['', 'p50 ms', 'p95 ms', 'max ms'],
        (['put', 'keyword', 'hybrid'] as const).map((k) => [
          k === 'put' ? 'PUT answered' : `${k} query finds it`,
          ...ms(searchable[k]),
          searchable[k].max_ms.toFixed(1),
        ]),
      ),
  );
} finally {
  await db.end().catch(() => undefined);
  await dev.stop();
  await rm(dataDir, { recursive: true, force: true });
}

interface ListParams {
  page?: number;
  sort?: string;
  q?: string;
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
  return JSON.parse(text) as { data: unknown };
}

async function listFiles(base: string, token: string, params: ListParams) {
  const query = new URLSearchParams({ collection_id: SHARED, size: String(PAGE_SIZE) });
  for (const [key, value] of Object.entries(params)) query.set(key, String(value));
  const { data } = await call(base, token, `/moduleknowledge/files?${query}`);
  const page = data as { items: unknown[]; total: number };
  return { items: page.items.length, total: page.total };
}

/** Ms from `since` until a query in `mode` finds chunk `id` for `word`. */
async function untilFound(
  base: string,
  token: string,
  word: string,
  id: number,
  mode: 'keyword' | 'hybrid',
  since: number,
): Promise<number> {
  const query = new URLSearchParams({ text: word, mode, top: '10' });
  for (;;) {
    const { data } = await call(base, token, `/moduleknowledge/query?${query}`);
    if ((data as { id: number }[]).some((r) => r.id === id)) return performance.now() - since;
    if (performance.now() - since > 60_000) throw new Error(`chunk ${id} not found in 60 s`);
  }
}
