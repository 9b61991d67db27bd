// npm run bench:chat: the chat path's own overhead. Starts an isolated `npm run dev` stack whose
// offline model answers with no delay between chunks (a zero-latency model), uploads the English
// fixture, then measures time to the first SSE byte and to the first answer chunk over sequential
// chats (median, p95), and runs 50 chat streams at once, counting any that did not end with
// `done`. Then what a conversation's history costs: the first answer chunk of a turn that
// continues a 20-turn conversation (its turns read, the question rewritten by the model, the 20
// turns in the prompt) against a turn that starts a new one, interleaved; the floor subtracted
// is the rewriting request itself, sent straight to the model endpoint, so what remains is the
// service's own overhead. Loopback only, bounded, stops by itself. Results:
// bench-results/chat.json.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { ENGLISH_POLICY_FIXTURE, makeTextPdf } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { chat, login, upload, type ChatRun } from './client.ts';
import { stats } from './stats.ts';

const SEQUENTIAL = 60;
const CONCURRENT = 50;
const PROMPT = 'What does the Marrowbank refund rule say?';
/** Turns of history, and samples of each kind (with and without) for the comparison. */
const HISTORY_TURNS = 20;
const HISTORY_SAMPLES = 40;

const stack = await launchDev({
  dataDir: await mkdtemp(path.join(tmpdir(), 'kbchat-bench-chat-')),
  // A history budget that holds all 20 turns: the comparison is at 20 turns, not fewer.
  env: { OFFLINE_MODEL_CHUNK_DELAY_MS: '0', LOG_LEVEL: 'warn', CHAT_HISTORY_TOKENS: '32000' },
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

  const history = await historyCost(stack.baseUrl, stack.modelControlUrl, token);

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
    history,
  };
  await mkdir('bench-results', { recursive: true });
  await writeFile('bench-results/chat.json', `${JSON.stringify(results, null, 2)}\n`);
  const s = results.sequential;
  console.log(`chat (${SEQUENTIAL} sequential, zero-latency model)
  first SSE byte        median ${s.firstByteMs.median_ms} ms   p95 ${s.firstByteMs.p95_ms} ms
  first answer chunk    median ${s.firstAnswerChunkMs.median_ms} ms   p95 ${s.firstAnswerChunkMs.p95_ms} ms
  whole stream          median ${s.totalMs.median_ms} ms   p95 ${s.totalMs.p95_ms} ms
  ${CONCURRENT} concurrent streams: ${results.concurrent.done} done, ${results.concurrent.errors} errors, ${results.concurrent.wallMs} ms wall, first answer chunk p95 ${results.concurrent.firstAnswerChunkMs.p95_ms} ms
history (${HISTORY_TURNS} turns, ${HISTORY_SAMPLES} turns each, interleaved; first answer chunk)
  new conversation      median ${history.withoutHistory.median_ms} ms   p95 ${history.withoutHistory.p95_ms} ms
  20-turn conversation  median ${history.withHistory.median_ms} ms   p95 ${history.withHistory.p95_ms} ms
  rewriting request alone (floor, straight to the model) median ${history.rewriteFloor.median_ms} ms
  history's service overhead (median difference − floor): ${history.overheadMs} ms   (target ≤ 10 ms)
results: bench-results/chat.json`);
  if (results.concurrent.errors > 0 || s.notDone > 0 || history.notDone > 0) process.exitCode = 1;
} finally {
  await stack.stop();
}

/**
 * A conversation of HISTORY_TURNS turns, then turns that continue it interleaved with turns
 * that start new conversations (the same question, so retrieval and answer are alike), and
 * the rewriting request a continued turn makes, timed straight at the model endpoint.
 */
async function historyCost(base: string, modelControlUrl: string, token: string) {
  const first = await chat(base, token, PROMPT);
  const conversationId = first.conversationId;
  if (!conversationId) throw new Error('the chat stream did not name its conversation');
  for (let i = 1; i < HISTORY_TURNS; i++) await chat(base, token, PROMPT, { conversationId });
  await waitForTurns(base, token, conversationId, HISTORY_TURNS);

  const withHistory: ChatRun[] = [];
  const withoutHistory: ChatRun[] = [];
  for (let i = 0; i < HISTORY_SAMPLES; i++) {
    withoutHistory.push(await chat(base, token, PROMPT));
    withHistory.push(await chat(base, token, PROMPT, { conversationId }));
  }

  // The rewriting request as chat sent it (the offline model records requests), sent again.
  const modelUrl = modelControlUrl.replace(/\/_control$/, '');
  const recorded = (await (
    await fetch(`${modelControlUrl}/requests?path=/v1/chat/completions`)
  ).json()) as { body: { messages?: { content?: unknown }[] } }[];
  const rewriting = recorded
    .map((r) => r.body)
    .findLast((body) => JSON.stringify(body.messages ?? []).includes('Follow-up question:'));
  if (!rewriting) throw new Error('no rewriting request was recorded');
  const rewrite: number[] = [];
  for (let i = 0; i < HISTORY_SAMPLES; i++) {
    const started = performance.now();
    const res = await fetch(`${modelUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(rewriting),
    });
    await res.json();
    rewrite.push(performance.now() - started);
  }
  const answered = (runs: typeof withHistory) => runs.flatMap((r) => r.firstAnswerMs ?? []);
  const withStats = stats(answered(withHistory));
  const withoutStats = stats(answered(withoutHistory));
  const rewriteFloor = stats(rewrite);
  return {
    turns: HISTORY_TURNS,
    samples: HISTORY_SAMPLES,
    withHistory: withStats,
    withoutHistory: withoutStats,
    rewriteFloor,
    overheadMs:
      Math.round((withStats.median_ms - withoutStats.median_ms - rewriteFloor.median_ms) * 10) / 10,
    notDone: [...withHistory, ...withoutHistory].filter((r) => r.ending !== 'done').length,
  };
}

async function storedTurns(base: string, token: string, id: string) {
  const res = await fetch(`${base}/modulechat/conversation?id=${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { data } = (await res.json()) as {
    data: { messages: { question: string; answer: string }[] };
  };
  return data.messages.map((m) => ({ question: m.question, answer: m.answer, answered: true }));
}

/** Turns are stored after their stream ends: wait until all are there. */
async function waitForTurns(base: string, token: string, id: string, turns: number) {
  const deadline = Date.now() + 30_000;
  while ((await storedTurns(base, token, id)).length < turns) {
    if (Date.now() > deadline) throw new Error(`the conversation never had ${turns} turns`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
