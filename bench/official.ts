// npm run bench:official (issue 34, "Measured"): an official answer (标准口径) is returned with
// its first byte ≤ 30 ms over the floor. Starts an isolated local stack, writes an official
// answer for the shared collection (citing a passage of a file uploaded for it), then times,
// interleaved sample by sample:
// - the chat (POST /modulechat/chat over the shared collection) with the official question:
//   its first byte (the `conversation` event) and the official answer's text (its first
//   `content` message: nothing is echoed and no model is asked);
// - the floor, the same request's unavoidable work done back to back with nothing in between:
//   an authenticated request (GET /moduleauth/me: token check and session check), one
//   embedding of the question at the model endpoint, and the match statement (the chat
//   worker's own, workers/chat/src/store/official-answers.ts) on an open pg connection;
// - for comparison, the chat with a question that matches no official answer (retrieval, the
//   offline model): its first answer chunk, to show the lookup beside retrieval adds no wait.
// Target: the official answer's text p50 ≤ floor p50 + 30 ms. Results:
// bench-results/official.json and a table.
//
//   node bench/official.ts [--samples 40]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { makeTextPdf } from '../dev/fixtures/pdf-builder.ts';
import { configuredEmbeddingModel } from '../dev/stack/embedding-model.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../dev/stack/seed.ts';
import { devDatabaseSettings } from './eval/exact-search.ts';
import { loadKnowledgeStore } from './nearest-chunks-query.ts';
import { login } from './paths/service-calls.ts';
import { stats, type Stats } from './stats.ts';
import { table } from './table.ts';

const SHARED = '00000000-0000-0000-0000-000000000000';
const TARGET_OVER_FLOOR_MS = 30;
const WARMUP = 5;
const COLUMN = 1536;
const TAG = crypto.randomUUID().slice(0, 8);
const QUESTION = `How many vacation days does a Quenborough${TAG} clerk get each year?`;
const ANSWER = `A Quenborough clerk gets 25 vacation days a year, and 30 after ten years of service.`;
const OTHER = `What do the Quenborough${TAG} leave rules say about carrying days over?`;

const { values: args } = parseArgs({ options: { samples: { type: 'string', default: '40' } } });
const SAMPLES = Number(args.samples);

type Built = { toSQL(): { sql: string; params: unknown[] } };
interface OfficialStore {
  nearestOfficialAnswers(
    db: unknown,
    embedding: number[],
    model: string,
    collectionIds: string[] | undefined,
  ): Built;
}

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.error(`official: ${message}`);

const dataDir = await mkdtemp(path.join(tmpdir(), 'kbchat-bench-official-'));
log(`starting an isolated stack (data in ${dataDir})`);
const dev = await launchDev({ dataDir, env: { LOG_LEVEL: 'warn', OCR: 'off' } });
const db = new pg.Client({ connectionString: (await devDatabaseSettings(dataDir)).url });
const modelUrl = dev.modelControlUrl.replace(/\/_control$/, '');
try {
  await db.connect();
  const token = await login(dev.baseUrl, LOCAL_ADMIN.username, LOCAL_ADMIN.password);
  const auth = { Authorization: `Bearer ${token}` };

  log('uploading a file to the shared collection and writing an official answer citing it');
  const form = new FormData();
  form.append(
    'file',
    new File(
      [
        makeTextPdf([
          `Quenborough${TAG} leave rules. A clerk gets 25 vacation days a year; after ten years of service, 30. Unused days may be carried over until March.`,
        ]).slice(),
      ],
      'quenborough-leave.pdf',
    ),
  );
  const uploaded = await json<{ id: string }>(
    await fetch(`${dev.baseUrl}/moduleknowledge/upload`, {
      method: 'POST',
      headers: auth,
      body: form,
    }),
  );
  const hits = await json<{ id: number }[]>(
    await fetch(
      `${dev.baseUrl}/moduleknowledge/query?${new URLSearchParams({ text: 'Quenborough leave rules', top: '1', file_id: uploaded.id })}`,
      { headers: auth },
    ),
  );
  const official = await json<{ id: string }>(
    await fetch(`${dev.baseUrl}/modulechat/official_answer`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        collection_id: SHARED,
        question: QUESTION,
        answer: ANSWER,
        citations: [hits[0]!.id],
      }),
    }),
  );

  // The chat worker's match statement, rendered as it sends it.
  await loadKnowledgeStore(); // registers the resolve hooks shared/ needs
  // …and the same for the chat worker's sources: relative imports without an extension.
  const chatSources = pathToFileURL(path.join(root, 'workers/chat/src') + path.sep).href;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const fromChat = (context.parentURL ?? '').startsWith(chatSources);
      return fromChat && specifier.startsWith('.') && path.extname(specifier) === ''
        ? nextResolve(`${specifier}.ts`, context)
        : nextResolve(specifier, context);
    },
  });
  const store = (await import(
    pathToFileURL(path.join(root, 'workers/chat/src/store/official-answers.ts')).href
  )) as OfficialStore;
  const mock = drizzle.mock();
  const embeddingModel = configuredEmbeddingModel(process.env);

  const runs = {
    officialFirstByte: [] as number[],
    officialAnswer: [] as number[],
    floor: [] as number[],
    floorAuth: [] as number[],
    floorEmbedding: [] as number[],
    floorMatch: [] as number[],
    retrievalFirstByte: [] as number[],
    retrievalAnswer: [] as number[],
  };
  log(`${SAMPLES} samples (+${WARMUP} warm-up) of each`);
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const keep = i >= WARMUP;
    const chatRun = await chat(dev.baseUrl, token, QUESTION);
    if (chatRun.mode !== 'official' || chatRun.officialId !== official.id) {
      throw new Error(`the official question was answered with mode ${chatRun.mode}`);
    }
    const t0 = performance.now();
    await drain(await fetch(`${dev.baseUrl}/moduleauth/me`, { headers: auth }));
    const t1 = performance.now();
    const embedded = await json<{ embedding: number[] }[]>(
      await fetch(`${modelUrl}/v1/embeddings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: 'text-embedding-3-small',
          input: [QUESTION],
          encoding_format: 'float',
        }),
      }),
    );
    const t2 = performance.now();
    const vector = [...embedded[0]!.embedding, ...new Array<number>(COLUMN).fill(0)].slice(
      0,
      COLUMN,
    );
    const { sql, params } = store
      .nearestOfficialAnswers(mock, vector, embeddingModel, [SHARED])
      .toSQL();
    const { rows } = await db.query(sql, params);
    const t3 = performance.now();
    if (rows.length === 0) throw new Error('the floor’s match statement found nothing');
    const other = await chat(dev.baseUrl, token, OTHER);
    if (keep) {
      runs.officialFirstByte.push(chatRun.firstByteMs);
      runs.officialAnswer.push(chatRun.firstContentMs);
      runs.floorAuth.push(t1 - t0);
      runs.floorEmbedding.push(t2 - t1);
      runs.floorMatch.push(t3 - t2);
      runs.floor.push(t3 - t0);
      runs.retrievalFirstByte.push(other.firstByteMs);
      runs.retrievalAnswer.push(other.firstContentMs);
    }
  }
  const summary = Object.fromEntries(
    Object.entries(runs).map(([name, values]) => [name, stats(values)]),
  ) as Record<keyof typeof runs, Stats>;
  const over = summary.officialAnswer.median_ms - summary.floor.median_ms;
  const results = {
    samples: SAMPLES,
    ...summary,
    official_over_floor_p50_ms: Math.round(over * 10) / 10,
    target_ms: TARGET_OVER_FLOOR_MS,
    met: over <= TARGET_OVER_FLOOR_MS,
  };
  await mkdir(path.join(root, 'bench-results'), { recursive: true });
  await writeFile(
    path.join(root, 'bench-results/official.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  const row = (name: string, s: Stats) => [name, s.median_ms.toFixed(1), s.p95_ms.toFixed(1)];
  console.log(
    table(
      ['', 'p50 ms', 'p95 ms'],
      [
        row('official: first byte (conversation event)', summary.officialFirstByte),
        row('official: the answer’s text', summary.officialAnswer),
        row('floor: auth + embedding + match', summary.floor),
        row('  auth (GET /moduleauth/me)', summary.floorAuth),
        row('  one embedding', summary.floorEmbedding),
        row('  match statement', summary.floorMatch),
        row('retrieval: first byte', summary.retrievalFirstByte),
        row('retrieval: first content (prompt echo)', summary.retrievalAnswer),
      ],
    ),
  );
  console.log(
    `official answer over the floor (p50): ${results.official_over_floor_p50_ms} ms ` +
      `(target ≤ ${TARGET_OVER_FLOOR_MS} ms: ${results.met ? 'met' : 'NOT MET'})`,
  );
} finally {
  await db.end().catch(() => undefined);
  await dev.stop();
  await rm(dataDir, { recursive: true, force: true });
}

async function json<T>(res: Response): Promise<T> {
  const body = await res.text();
  if (res.status !== 200)
    throw new Error(`${res.url} answered ${res.status}: ${body.slice(0, 300)}`);
  return (JSON.parse(body) as { data: T }).data;
}

async function drain(res: Response): Promise<void> {
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${res.url} answered ${res.status}`);
}

/** One chat over the shared collection, read to its end: first byte, first content, how it ended. */
async function chat(base: string, token: string, prompt: string) {
  const started = performance.now();
  const res = await fetch(`${base}/modulechat/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ prompt, collection_id: [SHARED] }),
  });
  if (res.status !== 200 || !res.body) throw new Error(`chat answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let firstByteMs = 0;
  let firstContentMs = 0;
  let mode: string | undefined;
  let officialId: string | undefined;
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!firstByteMs) firstByteMs = performance.now() - started;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.slice(event.indexOf('data: ') + 6);
      if (event.startsWith('event: done')) {
        const told = JSON.parse(data) as { mode: string; official?: { id: string } };
        mode = told.mode;
        officialId = told.official?.id;
      } else if (event.startsWith('data: ') && !firstContentMs) {
        if ((JSON.parse(data) as { type: string }).type === 'content') {
          firstContentMs = performance.now() - started;
        }
      }
    }
  }
  return { firstByteMs, firstContentMs, mode, officialId };
}
