// npm run bench:chat: the chat path's own overhead. Starts an isolated `npm run dev` stack whose
// offline model answers with no delay between chunks (a zero-latency model), uploads the English
// fixture, then measures time to the first SSE byte and to the first answer chunk over sequential
// chats (median, p95), and runs 50 chat streams at once, counting any that did not end with
// `done`. Loopback only, bounded, stops by itself. Results: bench-results/chat.json.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { ENGLISH_POLICY_FIXTURE, makeTextPdf } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { chat, login, upload } from './client.ts';
import { stats } from './stats.ts';

const SEQUENTIAL = 60;
const CONCURRENT = 50;
const PROMPT = 'What does the Marrowbank refund rule say?';

const stack = await launchDev({
  dataDir: await mkdtemp(path.join(tmpdir(), 'kbchat-bench-chat-')),
  env: { OFFLINE_MODEL_CHUNK_DELAY_MS: '0', LOG_LEVEL: 'warn' },
});
try {
  const token = await login(stack.baseUrl, 'admin', 'admin-password');
  const uploaded = await upload(
    stack.baseUrl,
    token,
    makeTextPdf(ENGLISH_POLICY_FIXTURE.pages),
    'charter.pdf',
  );
  if (uploaded.status !== 200) throw new Error(`upload failed: ${uploaded.status}`);
  await chat(stack.baseUrl, token, PROMPT); // warm-up: isolates, pdf-free paths, connections

  const sequential = [];
  for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await chat(stack.baseUrl, token, PROMPT));
  const started = performance.now();
  const concurrent = await Promise.all(
    Array.from({ length: CONCURRENT }, () => chat(stack.baseUrl, token, PROMPT)),
  );
  const concurrentMs = performance.now() - started;

  const results = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    model: 'offline endpoint, 0 ms between chunks',
    sequential: {
      firstByteMs: stats(sequential.map((r) => r.firstByteMs)),
      firstAnswerChunkMs: stats(sequential.flatMap((r) => r.firstAnswerMs ?? [])),
      totalMs: stats(sequential.map((r) => r.totalMs)),
      notDone: sequential.filter((r) => r.ending !== 'done').length,
    },
    concurrent: {
      streams: CONCURRENT,
      wallMs: Math.round(concurrentMs),
      done: concurrent.filter((r) => r.ending === 'done').length,
      errors: concurrent.filter((r) => r.ending !== 'done').length,
      firstAnswerChunkMs: stats(concurrent.flatMap((r) => r.firstAnswerMs ?? [])),
    },
  };
  await mkdir('bench-results', { recursive: true });
  await writeFile('bench-results/chat.json', `${JSON.stringify(results, null, 2)}\n`);
  const s = results.sequential;
  console.log(`chat (${SEQUENTIAL} sequential, zero-latency model)
  first SSE byte        median ${s.firstByteMs.median_ms} ms   p95 ${s.firstByteMs.p95_ms} ms
  first answer chunk    median ${s.firstAnswerChunkMs.median_ms} ms   p95 ${s.firstAnswerChunkMs.p95_ms} ms
  whole stream          median ${s.totalMs.median_ms} ms   p95 ${s.totalMs.p95_ms} ms
  ${CONCURRENT} concurrent streams: ${results.concurrent.done} done, ${results.concurrent.errors} errors, ${results.concurrent.wallMs} ms wall, first answer chunk p95 ${results.concurrent.firstAnswerChunkMs.p95_ms} ms
results: bench-results/chat.json`);
  if (results.concurrent.errors > 0 || s.notDone > 0) process.exitCode = 1;
} finally {
  await stack.stop();
}
