// npm run bench:mcp: the MCP `search` tool against the HTTP query route it stands beside, for
// the same question under the same API key. Starts an isolated local stack, uploads a PDF,
// connects the official MCP SDK's client (Streamable HTTP, as any MCP client would) and times
// `tools/call search` against `GET /moduleknowledge/query` with the same text and top, runs
// interleaved so that both see the same machine. Each MCP call is one POST through the gateway
// to chat, which asks knowledge the same query over its service binding. Target: the MCP tool
// within 10 ms p50 of the HTTP route. Loopback only. Results: bench-results/mcp.json.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeTextPdf } from '../dev/fixtures/pdf-builder.ts';
import { launchDev } from '../dev/stack/launch-dev.ts';
import { assertLoopback, login, upload } from './client.ts';
import { stats } from './stats.ts';
import { table } from './table.ts';

const RUNS = Number(process.env.MCP_BENCH_RUNS ?? 60);
const WARM_UP = 5;
const TOP = 10;
const TARGET_MS = 10;
const QUESTION = 'Quillmoor refund rule for freight consignments';
const PAGES = Array.from({ length: 12 }, (_, i) =>
  [
    `Quillmoor rule ${i + 1}. Passenger tickets of line ${i + 1} are refunded within ${i + 7} days`,
    `of the request, less a handling fee of ${i + 10} euros. Freight consignments of line ${i + 1}`,
    `are refunded within ${i + 20} days of the claim. The freight office of line ${i + 1} opens at`,
    `${(i % 5) + 5}:00 for deliveries and pickups.`,
  ].join(' '),
);

const stack = await launchDev({
  dataDir: await mkdtemp(path.join(tmpdir(), 'kbchat-bench-mcp-')),
  env: { LOG_LEVEL: 'warn', OCR: 'off' },
});
try {
  assertLoopback(stack.baseUrl);
  const login_ = await login(stack.baseUrl, 'admin', 'admin-password');
  const keyRes = await fetch(`${stack.baseUrl}/moduleauth/api_key`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${login_}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'bench mcp' }),
  });
  if (keyRes.status !== 200) throw new Error(`api key: ${keyRes.status} ${await keyRes.text()}`);
  const key = ((await keyRes.json()) as { data: { key: string } }).data.key;
  const uploaded = await upload(stack.baseUrl, key, makeTextPdf(PAGES), 'quillmoor-lines.pdf');
  if (!uploaded.data) throw new Error(`upload failed: ${uploaded.status}`);

  const client = new Client({ name: 'kbchat-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/modulechat/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  const queryUrl = `${stack.baseUrl}/moduleknowledge/query?text=${encodeURIComponent(QUESTION)}&top=${TOP}`;

  const viaMcp = async () => {
    const started = performance.now();
    const result = await client.callTool({
      name: 'search',
      arguments: { question: QUESTION, top: TOP },
    });
    const ms = performance.now() - started;
    const passages = (result.structuredContent as { passages?: { chunk_id: number }[] })?.passages;
    if (result.isError || !passages?.length)
      throw new Error(`mcp search: ${JSON.stringify(result)}`);
    return { ms, ids: passages.map((p) => p.chunk_id) };
  };
  const viaHttp = async () => {
    const started = performance.now();
    const res = await fetch(queryUrl, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data?: { id: number }[] };
    const ms = performance.now() - started;
    if (res.status !== 200 || !body.data?.length) throw new Error(`query: ${res.status}`);
    return { ms, ids: body.data.map((r) => r.id) };
  };

  // What the MCP hop adds before any tool runs: a chat route that checks the same key and does
  // nothing else (the OpenAI door's model list), through the same gateway.
  const viaChatHop = async () => {
    const started = performance.now();
    const res = await fetch(`${stack.baseUrl}/modulechat/v1/models`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`models: ${res.status}`);
    return { ms: performance.now() - started };
  };

  for (let i = 0; i < WARM_UP; i++) {
    await viaMcp();
    await viaHttp();
    await viaChatHop();
  }
  const [first, second] = [await viaMcp(), await viaHttp()];
  if (JSON.stringify(first.ids) !== JSON.stringify(second.ids)) {
    throw new Error(`the two found different passages: ${first.ids} vs ${second.ids}`);
  }
  const mcp: number[] = [];
  const http: number[] = [];
  const hop: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Alternate which goes first, so that neither always follows the other's warm caches.
    if (i % 2 === 0) {
      mcp.push((await viaMcp()).ms);
      http.push((await viaHttp()).ms);
    } else {
      http.push((await viaHttp()).ms);
      mcp.push((await viaMcp()).ms);
    }
    hop.push((await viaChatHop()).ms);
  }
  await client.close();

  const results = {
    question: QUESTION,
    top: TOP,
    runs: RUNS,
    mcp_search: stats(mcp),
    http_query: stats(http),
    chat_key_check_only: stats(hop),
    difference_p50_ms: round(stats(mcp).median_ms - stats(http).median_ms),
    difference_p95_ms: round(stats(mcp).p95_ms - stats(http).p95_ms),
    target_p50_ms: TARGET_MS,
  };
  await mkdir('bench-results', { recursive: true });
  await writeFile('bench-results/mcp.json', `${JSON.stringify(results, null, 2)}\n`);
  const met = results.difference_p50_ms <= TARGET_MS;
  console.log(
    `mcp: the search tool vs GET /moduleknowledge/query, same question, top ${TOP}, ${RUNS} runs each (interleaved)\n` +
      table(
        ['', 'p50 ms', 'p95 ms', 'min ms', 'max ms'],
        [
          ['MCP tools/call search', ...row(results.mcp_search)],
          ['HTTP GET /moduleknowledge/query', ...row(results.http_query)],
          ['(chat hop alone: GET /modulechat/v1/models)', ...row(results.chat_key_check_only)],
          [
            'difference (MCP − HTTP)',
            results.difference_p50_ms.toFixed(1),
            results.difference_p95_ms.toFixed(1),
            '',
            '',
          ],
        ],
      ) +
      `\ntarget: MCP within ${TARGET_MS} ms p50 of HTTP — ${met ? 'met' : 'NOT met'}`,
  );
  if (!met) process.exitCode = 1;
} finally {
  await stack.stop();
}

function row(s: ReturnType<typeof stats>): string[] {
  return [s.median_ms, s.p95_ms, s.min_ms, s.max_ms].map((v) => v.toFixed(1));
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
