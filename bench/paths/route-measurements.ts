// The plain routes next to their floors, interleaved (see interleaved.ts):
//   query  GET /moduleknowledge/query?text=…&top=10 vs the question's embedding from the model
//          endpoint + the worker's nearest-chunks statement on an open `pg` connection;
//   list   GET /moduleknowledge/list?file_id=… vs the worker's list statement on `pg`;
//   me     GET /moduleauth/me (≤ 5 ms) vs the session check statement on `pg`;
//   login  POST /moduleauth/login vs PBKDF2-SHA256 100,000 in Node (the worker's own code).
// Each also runs the worker's statements the way the worker sends them (one HTTP /sql request
// with the session check first) and counts the route's round trips at the local proxy.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import type { DatabaseSettings } from '#shared/db/database';
import { stats, type Stats } from '../stats.ts';
import {
  runStatement,
  workerSql,
  type SessionClaim,
  type WorkerStatements,
} from './database-floors.ts';
import { interleaved, timed } from './interleaved.ts';
import { embedQuestion } from './model-calls.ts';
import { countRoundTrips } from './round-trips.ts';
import { overP50, partsOf, type RouteFigure } from './route-figures.ts';
import * as service from './service-calls.ts';

const TOP = 10;
const WARMUP = 5;
const ROUND_TRIP_CALLS = 5;

export interface RouteContext {
  service: service.Service;
  admin: { username: string; password: string };
  /** The database as its owner: the floors' bare statements. */
  db: pg.Client;
  /** The workers' login (row-level security applies): their statements as they send them. */
  workerSettings: DatabaseSettings;
  proxyAddress: string;
  modelBase: string;
  statements: WorkerStatements;
  claim: SessionClaim;
}

/**
 * The query route in one mode (hybrid, the default, or vector), against its floor: the
 * question's embedding plus the worker's own statement for that mode on an open `pg`
 * connection.
 */
export async function measureQuery(
  ctx: RouteContext,
  questions: string[],
  samples: number,
  mode: 'hybrid' | 'vector',
): Promise<RouteFigure> {
  const http = workerSql(ctx.workerSettings);
  const question = (i: number) => questions[(i + questions.length) % questions.length]!;
  const statementFor = (vector: number[], i: number) =>
    ctx.statements.search(vector, question(i), TOP, mode);
  // The vectors for the worker-SQL step, fetched beforehand: that step times SQL only.
  const vectors = new Map<string, number[]>();
  for (const q of questions) vectors.set(q, await embedQuestion(ctx.modelBase, q));
  const measured = await interleaved(samples, WARMUP, {
    route: async (i) => {
      const found = await service.query(ctx.service, question(i), TOP, mode);
      if (found !== TOP) throw new Error(`the query found ${found} chunks, not ${TOP}`);
    },
    floor: async (i) => {
      const embedding = await timed(() => embedQuestion(ctx.modelBase, question(i)));
      const statement = await statementForUser(ctx, statementFor(embedding.value, i));
      return { embedding: embedding.ms, statement };
    },
    worker_sql: async (i) => {
      await http.send(
        ctx.statements.session(ctx.claim),
        statementFor(vectors.get(question(i))!, i),
      );
    },
  });
  const route = stats(measured.route!);
  const floor = stats(measured.floor!);
  const over = overP50(route, floor);
  return {
    route: `GET /moduleknowledge/query (top ${TOP}, ${mode})`,
    latency: route,
    floor: {
      what: `embedding (model HTTP) + the ${mode} search statement (pg, open connection)`,
      latency: floor,
      parts: partsOf(measured, 'floor'),
    },
    worker_sql: {
      what: `session check + the ${mode} search statement, one HTTP /sql batch (Neon driver)`,
      latency: stats(measured.worker_sql!),
    },
    overhead_p50_ms: over,
    target: 'p50 ≤ floor + 5 ms',
    met: over <= 5,
    round_trips: await countRoundTrips(
      ctx.proxyAddress,
      () => service.query(ctx.service, question(0), TOP, mode),
      ROUND_TRIP_CALLS,
    ),
  };
}

export async function measureList(
  ctx: RouteContext,
  fileIds: string[],
  samples: number,
): Promise<RouteFigure> {
  const http = workerSql(ctx.workerSettings);
  const fileId = (i: number) => fileIds[(i + fileIds.length) % fileIds.length]!;
  const measured = await interleaved(samples, WARMUP, {
    route: async (i) => {
      const found = await service.list(ctx.service, fileId(i));
      if (found !== 1) throw new Error(`the list showed ${found} files, not 1`);
    },
    floor: async (i) => {
      await runStatement(ctx.db, ctx.statements.renderList([fileId(i)]));
    },
    worker_sql: (i) =>
      http.send(ctx.statements.session(ctx.claim), ctx.statements.listOn(http.db, [fileId(i)])),
  });
  const route = stats(measured.route!);
  const floor = stats(measured.floor!);
  const over = overP50(route, floor);
  return {
    route: 'GET /moduleknowledge/list?file_id=<one id>',
    latency: route,
    floor: { what: 'list statement (pg, open connection)', latency: floor },
    worker_sql: {
      what: 'session check + list statement, one HTTP /sql batch (Neon driver)',
      latency: stats(measured.worker_sql!),
    },
    overhead_p50_ms: over,
    target: 'measured (no target)',
    met: true,
    round_trips: await countRoundTrips(
      ctx.proxyAddress,
      () => service.list(ctx.service, fileId(0)),
      ROUND_TRIP_CALLS,
    ),
  };
}

export async function measureMe(ctx: RouteContext, samples: number): Promise<RouteFigure> {
  const http = workerSql(ctx.workerSettings);
  const session = ctx.statements.render(ctx.statements.session(ctx.claim));
  const measured = await interleaved(samples, WARMUP, {
    route: () => service.me(ctx.service),
    floor: async () => {
      await runStatement(ctx.db, session);
    },
    worker_sql: () => http.send(ctx.statements.session(ctx.claim)),
  });
  const route = stats(measured.route!);
  const floor = stats(measured.floor!);
  return {
    route: 'GET /moduleauth/me',
    latency: route,
    floor: { what: 'session check statement (pg, open connection)', latency: floor },
    worker_sql: {
      what: 'session check statement, one HTTP /sql request (Neon driver)',
      latency: stats(measured.worker_sql!),
    },
    overhead_p50_ms: overP50(route, floor),
    target: 'p50 ≤ 5 ms',
    met: route.median_ms <= 5,
    round_trips: await countRoundTrips(
      ctx.proxyAddress,
      () => service.me(ctx.service),
      ROUND_TRIP_CALLS,
    ),
  };
}

export async function measureLogin(ctx: RouteContext, samples: number): Promise<RouteFigure> {
  const { hashPassword, verifyPassword } = await passwordModule();
  const stored = await hashPassword('bench-password');
  const { username, password } = ctx.admin;
  const measured = await interleaved(samples, 2, {
    route: async () => {
      await service.login(ctx.service.base, username, password);
    },
    floor: async () => {
      if (!(await verifyPassword('bench-password', stored))) throw new Error('PBKDF2 mismatch');
    },
  });
  const route = stats(measured.route!);
  const floor = stats(measured.floor!);
  const over = overP50(route, floor);
  return {
    route: 'POST /moduleauth/login',
    latency: route,
    floor: { what: 'PBKDF2-SHA256 100,000 (Node WebCrypto, the worker’s code)', latency: floor },
    overhead_p50_ms: over,
    target: 'p50 ≤ PBKDF2 + 5 ms',
    met: over <= 5,
    round_trips: await countRoundTrips(
      ctx.proxyAddress,
      () => service.login(ctx.service.base, username, password),
      ROUND_TRIP_CALLS,
    ),
  };
}

interface PasswordModule {
  hashPassword(password: string): Promise<string>;
  verifyPassword(password: string, stored: string): Promise<boolean>;
}

async function passwordModule(): Promise<PasswordModule> {
  // A computed specifier: dev/'s type checker (NodeNext) does not follow it into workers/.
  const root = path.resolve(import.meta.dirname, '../..');
  const file = pathToFileURL(path.join(root, 'workers/auth/src/password.ts')).href;
  return (await import(file)) as PasswordModule;
}

export interface HybridOverVector {
  what: string;
  routes: { hybrid: Stats; vector: Stats; ratio_p50: number };
  statements: { hybrid: Stats; vector: Stats; ratio_p50: number };
  target: string;
  met: boolean;
}

/**
 * Hybrid against vector search in one interleaved loop: the ratio issue 14 targets, with both
 * routes (and both bare statements) under the same load. The per-mode figures above run one
 * mode after the other, so their ratio also holds whatever changed in between.
 */
export async function measureHybridOverVector(
  ctx: RouteContext,
  questions: string[],
  samples: number,
): Promise<HybridOverVector> {
  const question = (i: number) => questions[(i + questions.length) % questions.length]!;
  const vectors = new Map<string, number[]>();
  for (const q of questions) vectors.set(q, await embedQuestion(ctx.modelBase, q));
  const route = (mode: 'hybrid' | 'vector') => async (i: number) => {
    const found = await service.query(ctx.service, question(i), TOP, mode);
    if (found !== TOP) throw new Error(`the ${mode} query found ${found} chunks, not ${TOP}`);
  };
  const statement = (mode: 'hybrid' | 'vector') => async (i: number) => {
    const q = question(i);
    const ms = await statementForUser(ctx, ctx.statements.search(vectors.get(q)!, q, TOP, mode));
    return { ms };
  };
  const measured = await interleaved(samples, WARMUP, {
    hybrid: route('hybrid'),
    vector: route('vector'),
    hybrid_statement: statement('hybrid'),
    vector_statement: statement('vector'),
  });
  const ratio = (a: Stats, b: Stats) => Math.round((a.median_ms / b.median_ms) * 1000) / 1000;
  const routes = { hybrid: stats(measured.hybrid!), vector: stats(measured.vector!) };
  const statements = {
    hybrid: stats(measured['hybrid_statement.ms']!),
    vector: stats(measured['vector_statement.ms']!),
  };
  const routeRatio = ratio(routes.hybrid, routes.vector);
  return {
    what: `GET /moduleknowledge/query (top ${TOP}) hybrid against vector, interleaved; their statements on pg`,
    routes: { ...routes, ratio_p50: routeRatio },
    statements: { ...statements, ratio_p50: ratio(statements.hybrid, statements.vector) },
    target: 'hybrid p50 ≤ 1.2 × vector p50',
    met: routeRatio <= 1.2,
  };
}

/**
 * A worker's statement on `pg` as the owner (no policies) but for the session's user, as the
 * statement needs (the keyword list searches the collections of the user the session names);
 * only the statement is timed, in ms.
 */
async function statementForUser(
  ctx: RouteContext,
  statement: Parameters<RouteContext['statements']['render']>[0],
): Promise<number> {
  const rendered = ctx.statements.render(statement);
  await ctx.db.query('begin');
  try {
    await runStatement(ctx.db, ctx.statements.render(ctx.statements.session(ctx.claim)));
    return (await timed(() => runStatement(ctx.db, rendered))).ms;
  } finally {
    await ctx.db.query('commit');
  }
}
