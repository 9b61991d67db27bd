// npm run load [-- --seconds 60]: a bounded load run against an isolated `npm run dev` stack:
// 50 concurrent chat streams, 5 concurrent upload loops and 20 logins per second, for the given
// time (60 s by default; CI runs a short form). Reports requests completed, errors by status and
// latency percentiles, then checks that every upload that answered 200 is listed and queryable:
// nothing lost. Exits non-zero on any 5xx, request that timed out, or lost upload. Loopback only;
// stops by itself: each request is bounded (bench/client.ts), and the whole run too, so that a
// stack that stops answering fails the run with what was in flight and the stack's last lines.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeTextPdf } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { chat, isTimeout, login, REQUEST_TIMEOUT_MS, upload } from './client.ts';
import { stats } from './stats.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    chats: { type: 'string', default: '50' },
    uploads: { type: 'string', default: '5' },
    logins: { type: 'string', default: '20' },
  },
});
const seconds = Number(values.seconds);
const CHATS = Number(values.chats);
const UPLOADS = Number(values.uploads);
const LOGINS_PER_SECOND = Number(values.logins);

// The run, its last requests and the check afterwards, with room to spare (start-up is bounded
// by launchDev itself).
const RUN_BOUND_MS = (seconds + REQUEST_TIMEOUT_MS / 1000 + 120) * 1000;
const PROGRESS_EVERY_MS = 10_000;

const stack = await launchDev({
  dataDir: await mkdtemp(path.join(tmpdir(), 'kbchat-load-')),
  env: { LOG_LEVEL: 'warn' },
});
type Kind = 'chat' | 'upload' | 'login';
const latencies: Record<Kind, number[]> = { chat: [], upload: [], login: [] };
const statuses: Record<Kind, Record<string, number>> = { chat: {}, upload: {}, login: {} };
const inFlight: Record<Kind, number> = { chat: 0, upload: 0, login: 0 };
const count = (kind: Kind, status: string) =>
  (statuses[kind][status] = (statuses[kind][status] ?? 0) + 1);
const stored: { id: string; word: string }[] = [];
let phase = 'starting';
const runStarted = performance.now();
const progress = () =>
  `${phase}, ${Math.round((performance.now() - runStarted) / 1000)} s: done ${JSON.stringify(statuses)}; in flight ${JSON.stringify(inFlight)}`;
const ticker = setInterval(() => console.log(`load: ${progress()}`), PROGRESS_EVERY_MS);
const watchdog = setTimeout(() => {
  void (async () => {
    console.error(`load: no end after ${RUN_BOUND_MS / 1000} s, ${progress()}`);
    console.error(`load: the stack's last lines:\n${await stack.tail()}`);
    // The kill is sent at once, synchronously; exit before the loops see the refused connections.
    void stack.stop('SIGKILL');
    process.exit(1);
  })();
}, RUN_BOUND_MS);
/** Runs one request, counting it in flight, and its status (or `timeout`) when it ends. */
async function track<T>(kind: Kind, send: () => Promise<T>, status: (value: T) => string) {
  inFlight[kind]++;
  const started = performance.now();
  try {
    const value = await send();
    latencies[kind].push(performance.now() - started);
    count(kind, status(value));
    return value;
  } catch (err) {
    if (!isTimeout(err)) throw err;
    count(kind, 'timeout');
    return undefined;
  } finally {
    inFlight[kind]--;
  }
}

try {
  const base = stack.baseUrl;
  const token = await login(base, 'admin', 'admin-password');
  const seed = await upload(base, token, makeTextPdf([policy('seed')]), 'seed.pdf');
  if (seed.status !== 200) throw new Error(`seed upload: ${seed.status}`);
  const deadline = Date.now() + seconds * 1000;
  phase = 'running';

  const chatLoop = async () => {
    while (Date.now() < deadline) {
      await track(
        'chat',
        () => chat(base, token, 'What are the refund rules for parking permits?'),
        (run) =>
          run.ending === 'timeout'
            ? 'timeout'
            : run.status === 200
              ? `200 ${run.ending}`
              : String(run.status),
      );
    }
  };
  const uploadLoop = async (loop: number) => {
    for (let i = 0; Date.now() < deadline; i++) {
      const word = `load${loop}x${i}x${Date.now().toString(36)}`;
      const res = await track(
        'upload',
        () => upload(base, token, makeTextPdf([policy(word)]), `${word}.pdf`),
        (answer) => String(answer.status),
      );
      if (res?.data) stored.push({ id: res.data.id, word });
    }
  };
  const loginLoop = async () => {
    const pending: Promise<unknown>[] = [];
    for (let tick = 0; Date.now() < deadline; tick++) {
      for (let i = 0; i < LOGINS_PER_SECOND; i++) {
        pending.push(
          track(
            'login',
            async () => {
              const res = await fetch(`${base}/moduleauth/login`, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ username: 'admin', password: 'admin-password' }),
                signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
              });
              await res.arrayBuffer();
              return res.status;
            },
            String,
          ),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await Promise.all(pending);
  };

  const started = performance.now();
  await Promise.all([
    ...Array.from({ length: CHATS }, chatLoop),
    ...Array.from({ length: UPLOADS }, (_, i) => uploadLoop(i)),
    loginLoop(),
  ]);
  const wallSeconds = (performance.now() - started) / 1000;
  phase = 'checking';

  // Nothing lost: every upload that answered 200 is listed and its own text is found in it.
  const listed = await fetch(`${base}/moduleknowledge/list`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  }).then((res) => res.json() as Promise<{ data: { id: string }[] }>);
  const listedIds = new Set(listed.data.map((file) => file.id));
  const lost: string[] = [];
  for (const file of stored) {
    const query = new URLSearchParams({ text: file.word, top: '1', file_id: file.id });
    const res = await fetch(`${base}/moduleknowledge/query?${query}`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const found = res.status === 200 && ((await res.json()) as { data: unknown[] }).data.length > 0;
    if (!listedIds.has(file.id) || !found) lost.push(file.id);
  }

  const allStatuses = Object.values(statuses).flatMap((byStatus) => Object.entries(byStatus));
  const fiveHundreds = allStatuses
    .filter(([status]) => status.startsWith('5'))
    .reduce((sum, [, n]) => sum + n, 0);
  const timeouts = allStatuses
    .filter(([status]) => status === 'timeout')
    .reduce((sum, [, n]) => sum + n, 0);
  const results = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    plan: { seconds, chats: CHATS, uploads: UPLOADS, loginsPerSecond: LOGINS_PER_SECOND },
    wallSeconds: Math.round(wallSeconds),
    completed: Object.fromEntries(Object.entries(latencies).map(([k, v]) => [k, v.length])),
    statuses,
    latencyMs: Object.fromEntries(Object.entries(latencies).map(([k, v]) => [k, stats(v)])),
    uploadsStored: stored.length,
    uploadsLost: lost.length,
    fiveHundreds,
    timeouts,
  };
  await mkdir('bench-results', { recursive: true });
  await writeFile('bench-results/load.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `load: ${Math.round(wallSeconds)} s, ${CHATS} chat streams, ${UPLOADS} upload loops, ${LOGINS_PER_SECOND} logins/s`,
  );
  for (const kind of ['chat', 'upload', 'login'] as const) {
    const p = results.latencyMs[kind]!;
    console.log(
      `  ${kind.padEnd(7)} ${String(p.n).padStart(5)} done   median ${p.median_ms} ms  p95 ${p.p95_ms} ms  p99 ${p.p99_ms} ms   statuses ${JSON.stringify(statuses[kind])}`,
    );
  }
  console.log(
    `  uploads answered 200: ${stored.length}; listed and queryable afterwards: ${stored.length - lost.length}; lost: ${lost.length}`,
  );
  console.log(
    `  5xx: ${fiveHundreds}    no answer within ${REQUEST_TIMEOUT_MS / 1000} s: ${timeouts}    results: bench-results/load.json`,
  );
  if (fiveHundreds > 0 || timeouts > 0 || lost.length > 0) process.exitCode = 1;
} finally {
  phase = 'stopping';
  clearInterval(ticker);
  await stack.stop();
  clearTimeout(watchdog);
}

function policy(word: string): string {
  return `Parking permit refunds (${word}). Residents who no longer need a permit may ask for a refund within 45 days. The refund rules apply to every district. Reference ${word}.`;
}
