// npm run bench:quota (issue 35, "Measured"): the daily limits' check adds ≤ 1 ms p50 to a
// chat. The check (kbchat_quota, migration 0027) rides in the chat's first database batch,
// after the session check, so it costs no round trip: what it adds is the statement's work
// with limits set (summing the user's usage rows of the day) against its work with no limit
// set (one row read, and back). Starts an isolated local stack, uploads a file, then times,
// interleaved sample by sample (the limits switched by PUT /modulechat/limits in between):
// - a chat (POST /modulechat/chat, the offline model) with daily limits set, high enough
//   never to refuse: its first byte (the `conversation` event: the check runs before the
//   stream opens) and its whole answer;
// - the floor: the same chat with no limit set;
// - the statement alone on an open pg connection, both ways (`select kbchat_quota()` as the
//   user), and the function's own work in the database (1,000 calls in one statement, per call,
//   in µs), which is what the check adds to the batch it rides in.
// Target: chat first byte p50 with limits ≤ floor p50 + 1 ms. Results: bench-results/quota.json
// and a table.
//
//   node bench/quota.ts [--samples 50]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { makeTextPdf } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../dev/stack/seed.ts';
import { devDatabaseSettings } from './eval/exact-search.ts';
import { login } from './paths/service-calls.ts';
import { stats, type Stats } from './stats.ts';
import { table } from './table.ts';

const TARGET_OVER_FLOOR_MS = 1;
const WARMUP = 5;
const TAG = crypto.randomUUID().slice(0, 8);
const QUESTION = `When does the Marrowfield${TAG} ferry leave the harbour?`;

const { values: args } = parseArgs({ options: { samples: { type: 'string', default: '50' } } });
const SAMPLES = Number(args.samples);

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.error(`quota: ${message}`);

const NO_LIMITS = {
  user_daily_tokens: null,
  user_daily_questions: null,
  collection_max_bytes: null,
  collection_max_files: null,
  user_max_bytes: null,
  audit_questions: true,
  audit_retention_days: 1095,
};
const LIMITS = { ...NO_LIMITS, user_daily_tokens: 1_000_000_000, user_daily_questions: 1_000_000 };

const dataDir = await mkdtemp(path.join(tmpdir(), 'kbchat-bench-quota-'));
log(`starting an isolated stack (data in ${dataDir})`);
const dev = await launchDev({ dataDir, env: { LOG_LEVEL: 'warn', OCR: 'off' } });
const db = new pg.Client({ connectionString: (await devDatabaseSettings(dataDir)).url });
try {
  await db.connect();
  const token = await login(dev.baseUrl, LOCAL_ADMIN.username, LOCAL_ADMIN.password);
  const auth = { Authorization: `Bearer ${token}` };
  const me = await json<{ id: string }>(
    await fetch(`${dev.baseUrl}/moduleauth/me`, { headers: auth }),
  );
  // The statement alone acts for the same user (plain SET: the local front keeps it per client).
  await db.query(`set kbchat.user_id = '${me.id}'`);

  log('uploading a file to the shared collection');
  const form = new FormData();
  form.append(
    'file',
    new File(
      [
        makeTextPdf([
          `The Marrowfield${TAG} ferry leaves the harbour at seven every morning and returns at six.`,
        ]).slice(),
      ],
      'marrowfield-ferry.pdf',
    ),
  );
  await json(
    await fetch(`${dev.baseUrl}/moduleknowledge/upload`, {
      method: 'POST',
      headers: auth,
      body: form,
    }),
  );
  const setLimits = async (limits: typeof NO_LIMITS | typeof LIMITS) =>
    json(
      await fetch(`${dev.baseUrl}/modulechat/limits`, {
        method: 'PUT',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(limits),
      }),
    );
  const statement = async () => {
    const t0 = performance.now();
    await db.query('select kbchat_quota()');
    return performance.now() - t0;
  };

  // The function's own work in the database, without the round trip: 1,000 calls in one
  // statement, per call.
  const PER_STATEMENT = 1000;
  const inDatabase = async () => {
    const t0 = performance.now();
    await db.query(
      `select count(*) from (select kbchat_quota() from generate_series(1, ${PER_STATEMENT})) s`,
    );
    return ((performance.now() - t0) / PER_STATEMENT) * 1000;
  };

  const runs = {
    limitedFirstByte: [] as number[],
    limitedAnswer: [] as number[],
    floorFirstByte: [] as number[],
    floorAnswer: [] as number[],
    limitedStatement: [] as number[],
    floorStatement: [] as number[],
    limitedPerCallUs: [] as number[],
    floorPerCallUs: [] as number[],
  };
  log(`${SAMPLES} chats (+${WARMUP} warm-up) each way, interleaved`);
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const keep = i >= WARMUP;
    // Alternate which way goes first, so neither always follows the other.
    for (const limited of i % 2 ? [true, false] : [false, true]) {
      await setLimits(limited ? LIMITS : NO_LIMITS);
      const run = await chat(dev.baseUrl, token, QUESTION);
      const alone = await statement();
      const perCall = await inDatabase();
      if (!keep) continue;
      if (limited) {
        runs.limitedFirstByte.push(run.firstByteMs);
        runs.limitedAnswer.push(run.doneMs);
        runs.limitedStatement.push(alone);
        runs.limitedPerCallUs.push(perCall);
      } else {
        runs.floorFirstByte.push(run.firstByteMs);
        runs.floorAnswer.push(run.doneMs);
        runs.floorStatement.push(alone);
        runs.floorPerCallUs.push(perCall);
      }
    }
  }
  await setLimits(NO_LIMITS);
  const { rows } = await db.query<{ rows: string }>(
    `select count(*)::text as rows from usage_daily where user_id = $1`,
    [me.id],
  );
  const summary = Object.fromEntries(
    Object.entries(runs).map(([name, values]) => [name, stats(values)]),
  ) as Record<keyof typeof runs, Stats>;
  const over = summary.limitedFirstByte.median_ms - summary.floorFirstByte.median_ms;
  const results = {
    samples: SAMPLES,
    usage_rows_of_the_user: Number(rows[0]!.rows),
    ...summary,
    limited_over_floor_first_byte_p50_ms: Math.round(over * 100) / 100,
    target_ms: TARGET_OVER_FLOOR_MS,
    met: over <= TARGET_OVER_FLOOR_MS,
  };
  await mkdir(path.join(root, 'bench-results'), { recursive: true });
  await writeFile(
    path.join(root, 'bench-results/quota.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  const row = (name: string, a: Stats, b: Stats) => [
    name,
    a.median_ms.toFixed(2),
    a.p95_ms.toFixed(2),
    b.median_ms.toFixed(2),
    b.p95_ms.toFixed(2),
  ];
  console.log(
    table(
      ['', 'limits set p50', 'p95', 'floor (no limit) p50', 'p95'],
      [
        row('chat: first byte', summary.limitedFirstByte, summary.floorFirstByte),
        row('chat: whole answer', summary.limitedAnswer, summary.floorAnswer),
        row('select kbchat_quota() alone', summary.limitedStatement, summary.floorStatement),
        row(
          'kbchat_quota() in the database (µs a call)',
          summary.limitedPerCallUs,
          summary.floorPerCallUs,
        ),
      ],
    ),
  );
  console.log(
    `limits set over the floor (chat first byte, p50): ${results.limited_over_floor_first_byte_p50_ms} ms ` +
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

/** One chat over everything the admin reads, read to its end: first byte, and `done`. */
async function chat(base: string, token: string, prompt: string) {
  const started = performance.now();
  const res = await fetch(`${base}/modulechat/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ prompt }),
  });
  if (res.status !== 200 || !res.body) {
    throw new Error(`chat answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let firstByteMs = 0;
  let doneMs = 0;
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!firstByteMs) firstByteMs = performance.now() - started;
    text += value;
    if (!doneMs && text.includes('event: done')) doneMs = performance.now() - started;
  }
  if (!doneMs) throw new Error(`the chat did not end with done: ${text.slice(-300)}`);
  return { firstByteMs, doneMs };
}
