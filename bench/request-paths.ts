// Section `paths` of `npm run bench` (issue 12, "every request path near its floor"): an
// isolated stack (fresh data folder, offline model with no delay between chunks, LOG_LEVEL
// warn), ≥ 10,000 chunks seeded straight into its database, then each route timed next to its
// floor — the same work with nothing in between — and its database round trips counted at the
// local proxy (GET /_stats). Sequential calls only, so that every difference is the call's own.
//
//   node bench/run.ts paths [--path-chunks 10000] [--path-samples 100] [--chat-samples 40]
//                           [--ingest-pages 500]
//
// Output: bench-results/request-paths.json and a table (route, min/p50/p95, floor, overhead
// over the floor, round trips). Timings on a busy machine are noisy: route and floor are
// interleaved call by call, so the comparison within one run stays fair.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../dev/stack/seed.ts';
import { makeQuestions } from './corpus.ts';
import { devDatabaseSettings, workerDatabaseSettings } from './eval/exact-search.ts';
import { measureChat, type ChatOverhead } from './paths/chat-overhead.ts';
import {
  claimOf,
  nearestPlan,
  workerStatements,
  type WorkerStatements,
} from './paths/database-floors.ts';
import { meDuringIngest, type MeDuringIngest } from './paths/me-during-ingest.ts';
import { embedQuestion } from './paths/model-calls.ts';
import { measureProbes, type Probes } from './paths/probes.ts';
import type { RouteFigure } from './paths/route-figures.ts';
import {
  measureList,
  measureLogin,
  measureMe,
  measureHybridOverVector,
  measureQuery,
  type HybridOverVector,
  type RouteContext,
} from './paths/route-measurements.ts';
import { seedChunks } from './paths/seed-chunks.ts';
import { login } from './paths/service-calls.ts';

export interface RequestPathsOptions {
  chunks: number;
  samples: number;
  chatSamples: number;
  ingestPages: number;
  log: (message: string) => void;
  /** Registers what to undo on any way out (the caller runs them, last first). */
  onCleanup: (cleanup: () => Promise<void>) => void;
}

export interface RequestPaths {
  stack: { startup_s: number; model: string; log_level: string };
  seed: {
    chunks: number;
    files: number;
    chunks_stored: number;
    embed_s: number;
    insert_s: number;
    index_build_s: number;
    analyze_s: number;
  };
  nearest_plan: string;
  probes: Probes;
  routes: RouteFigure[];
  hybrid_over_vector: HybridOverVector;
  chat: ChatOverhead;
  me_during_ingest: MeDuringIngest;
}

// Questions of 3–6 words of one seeded chunk; chat keeps those whose best chunk clears its
// similarity threshold (CHAT_MIN_SIMILARITY 0.5) with a margin, so that the model is asked.
const QUESTIONS = 40;
const CHAT_MIN_BEST_SIMILARITY = 0.55;

export async function runRequestPaths(options: RequestPathsOptions): Promise<RequestPaths> {
  const { log } = options;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-bench-paths-'));
  options.onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  log(`paths: starting an isolated stack (data in ${dataDir})`);
  const t0 = performance.now();
  const dev = await launchDev({
    dataDir,
    env: { LOG_LEVEL: 'warn', OFFLINE_MODEL_CHUNK_DELAY_MS: '0' },
  });
  options.onCleanup(async () => void (await dev.stop()));
  const startup_s = round((performance.now() - t0) / 1000);
  const settings = await devDatabaseSettings(dataDir);
  // The workers' own login: their statements sent as they send them go through the policies.
  const workerSettings = await workerDatabaseSettings(dataDir);
  const proxyAddress = settings.proxy;
  if (!proxyAddress) throw new Error('the stack runs without the local proxy: nothing counts');
  const modelBase = dev.modelControlUrl.replace(/\/_control$/, '');
  log(`paths: stack healthy at ${dev.baseUrl} after ${startup_s} s`);

  const db = new pg.Client({ connectionString: settings.url });
  db.on('error', () => undefined); // a lost connection fails the statement that needed it
  await db.connect();
  options.onCleanup(() => db.end().catch(() => undefined));

  const admin = LOCAL_ADMIN;
  const service = {
    base: dev.baseUrl,
    token: await login(dev.baseUrl, admin.username, admin.password),
  };
  const claim = await claimOf(db, admin.username);

  log(`paths: seeding ${options.chunks} chunks`);
  const seeded = await seedChunks(db, {
    chunks: options.chunks,
    uploader: { id: claim.userId, username: admin.username },
  });
  const stored = await db.query<{ n: string }>('select count(*)::text as n from chunks');
  log(
    `paths: seeded ${seeded.chunks.length} chunks in ${seeded.files} files: embedded in ` +
      `${round(seeded.embed_s)} s, inserted in ${round(seeded.insert_s)} s, HNSW index built in ` +
      `${round(seeded.index_build_s)} s`,
  );

  const statements = await workerStatements();
  const questions = makeQuestions(seeded.chunks, seeded.words, QUESTIONS).map((q) => q.text);
  const firstVector = await embedQuestion(modelBase, questions[0]!);
  const plan = await nearestPlan(db, statements.render(statements.nearest(firstVector, 10)));
  log(`paths: the nearest-chunks statement runs as: ${plan}`);
  const chatQuestions = await answerable(db, statements, modelBase, questions);
  if (chatQuestions.length === 0) throw new Error('no question clears the chat threshold');

  const ctx: RouteContext = {
    service,
    admin,
    db,
    workerSettings,
    proxyAddress,
    modelBase,
    statements,
    claim,
  };
  const samples = options.samples;
  log(`paths: probes (${samples} each)`);
  const probes = await measureProbes({ base: dev.baseUrl, db, settings, proxyAddress, samples });
  const routes: RouteFigure[] = [];
  for (const mode of ['hybrid', 'vector'] as const) {
    log(`paths: query, ${mode} (${samples} with their floors)`);
    routes.push(await measureQuery(ctx, questions, samples, mode));
  }
  log(`paths: query, hybrid against vector interleaved (${samples} each)`);
  const hybridOverVector = await measureHybridOverVector(ctx, questions, samples);
  log(`paths: list (${samples})`);
  routes.push(await measureList(ctx, seeded.fileIds, samples));
  log(`paths: me (${samples})`);
  routes.push(await measureMe(ctx, samples));
  const logins = Math.min(samples, 40);
  log(`paths: login (${logins})`);
  routes.push(await measureLogin(ctx, logins));
  log(`paths: chat (${options.chatSamples}, ${chatQuestions.length} questions)`);
  const chat = await measureChat(
    service,
    modelBase,
    proxyAddress,
    chatQuestions,
    options.chatSamples,
  );
  log(`paths: /me while a ${options.ingestPages}-page PDF ingests`);
  const session = statements.render(statements.session(claim));
  const ingest = await meDuringIngest(service, {
    pages: options.ingestPages,
    runId: Math.random().toString(36).slice(2, 10),
    proxyAddress,
    statement: () => db.query(session.text, session.values),
  });
  log(`paths: done; stopping the stack`);
  await db.end();
  await dev.stop();
  return {
    stack: {
      startup_s,
      model: 'offline endpoint, 0 ms between streamed chunks',
      log_level: 'warn',
    },
    seed: {
      chunks: seeded.chunks.length,
      files: seeded.files,
      chunks_stored: Number(stored.rows[0]!.n),
      embed_s: round(seeded.embed_s),
      insert_s: round(seeded.insert_s),
      index_build_s: round(seeded.index_build_s),
      analyze_s: round(seeded.analyze_s),
    },
    nearest_plan: plan,
    probes,
    routes,
    hybrid_over_vector: hybridOverVector,
    chat,
    me_during_ingest: ingest,
  };
}

/** The questions whose best chunk clears the chat threshold with a margin. */
async function answerable(
  db: pg.Client,
  statements: WorkerStatements,
  modelBase: string,
  questions: string[],
): Promise<string[]> {
  const kept: string[] = [];
  for (const question of questions) {
    const vector = await embedQuestion(modelBase, question);
    const { text, values } = statements.render(statements.nearest(vector, 1));
    const { rows } = await db.query<{ similarity: string }>(text, values);
    if (Number(rows[0]?.similarity ?? 0) >= CHAT_MIN_BEST_SIMILARITY) kept.push(question);
  }
  return kept;
}

const round = (x: number) => Math.round(x * 100) / 100;
