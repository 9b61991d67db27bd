/**
 * Offline model: a local OpenAI-compatible HTTP endpoint for `npm run dev` and the tests when no
 * real model provider is configured. It is a real HTTP server speaking the real protocol on
 * loopback; the workers reach it through the `openai` SDK with MODEL_BASE_URL = `baseUrl`.
 *
 * Endpoints (any model name is accepted and echoed; any `Authorization: Bearer …` is accepted
 * and so is a request without Authorization — the key is never checked nor recorded):
 *   POST /v1/embeddings        input: string | string[] (≤ 2048; token arrays → 400),
 *                              dimensions (default 1536), encoding_format 'float' | 'base64'
 *                              (the SDK asks for base64 by default and decodes it itself).
 *   POST /v1/chat/completions  streaming (SSE, include_usage) and not; an extractive answer.
 *   GET  /v1/models            offline-embedding, offline-chat.
 *   …/_control/*               test controls (below).
 *
 * Embeddings — deterministic and lexical (./offline-model/lexical.ts):
 *   tokens: NFKC + lowercase; Latin/digit words minus a small English stop list, plurals
 *           folded and words cut to 6 characters (eligible/eligibility meet); CJK runs (Han,
 *           Hiragana, Katakana, Hangul) as character unigrams (weight 0.5) and bigrams
 *           (weight 1), minus a few function characters/words.
 *   lex   = L2-normalised feature hashing of the tokens into dimensions 1…n−2 (FNV-1a bucket,
 *           murmur3-finaliser sign), term weight (1 + ln tf) · token weight;
 *   e     = sqrt(w)·e0 + sqrt(1 − w)·lex, with e0 = dimension 0, so every vector has unit
 *           length and cosine(a, b) = w + (1 − w)·cos_lex(a, b). Text without tokens → the
 *           last dimension alone, orthogonal to every text with tokens (similarity 0).
 *   w     = 0.42. Measured (1536 dimensions) with 10 English and 10 Chinese policy questions,
 *           each against its own ~500-character answering paragraph (Chinese: 200–320
 *           characters) and against the 4 other paragraphs of its language (tax credit, water
 *           pipes, housing, transit, pre-school — same register, different topics):
 *             English  related   cos_lex 0.189…0.459 (median 0.31) → cosine 0.529…0.686 (0.600)
 *                      unrelated cos_lex −0.05…0.126 (median 0.00) → cosine 0.388…0.493 (0.420)
 *             Chinese  related   cos_lex 0.157…0.361 (median 0.26) → cosine 0.511…0.629 (0.573)
 *                      unrelated cos_lex −0.02…0.135 (median 0.02) → cosine 0.409…0.498 (0.433)
 *           e.g. "What are the eligibility requirements for the small business tax credit?"
 *           vs its paragraph 0.686, vs a water-pipes paragraph 0.420; "小微企业税收优惠政策的
 *           申请条件是什么？" vs its paragraph 0.602, vs a water-supply paragraph 0.430.
 *           w = 0.42 separates all 20 related / 80 unrelated pairs at 0.5; w = 0.40 dropped 2
 *           Chinese related pairs to 0.494/0.498, w = 0.45 lifted 5 unrelated pairs (one shared
 *           word or bigram) to ≥ 0.5 (max 0.524). The margins are small (~0.01–0.03) for weak
 *           pairs: retrieval is lexical, a question must share words (or CJK bigrams) with the
 *           passage, paraphrases do not match, and the lexical part shrinks roughly as
 *           1/sqrt(distinct tokens) for longer passages. Texts sharing no token score w (± hash
 *           collisions of about 0.03).
 *   Pinned vectors (POST /_control/embeddings) are used verbatim (padded/truncated, not
 *   normalised); through base64 they travel as float32, as with OpenAI.
 *
 * Follow-up rewriting — ./offline-model/condense.ts: a request with a <conversation> block
 * and a `Follow-up question:` line is answered with the follow-up plus the key terms of the
 * conversation's last `User:` question that it lacks.
 *
 * Chat — ./offline-model/answer.ts: the question is the paragraph after the last
 * `Question:`/`问题：` line (else the last paragraph of the last user message); the context
 * items are the `[n] …` (else `n. …`) items before it (inside a <context> tag, after a
 * `Context:` header or between delimiter lines when present); sentences are scored by overlap
 * with the question and the best 1–3 are answered as `1. <sentence> [n]`; with no overlap:
 * "I don't know based on the provided context." (Chinese questions: "根据所提供的资料，我不知道。").
 * Streamed a word (or 1–2 CJK characters) per chunk, `chunkDelayMs` apart; `max_tokens` /
 * `max_completion_tokens` cut the answer at ~4 characters per token (finish_reason "length").
 *
 * Test controls, JSON, under `controlUrl` = url + '/_control' (only /v1/* requests are recorded
 * and affected):
 *   POST /_control/reset       clears recorded requests, scheduled failures, delays, pins.
 *   GET  /_control/requests    [{ method, path, headers, body, at, aborted, status, failure }]
 *                              in arrival order (last 1000; `?path=/v1/embeddings` filters).
 *                              headers are lowercase; `authorization` is true/false (the key
 *                              is never kept); body is the parsed JSON (null if none/invalid);
 *                              at = Date.now() on arrival; aborted = the client went away
 *                              before the response ended; status = HTTP status sent (null if
 *                              none); failure = the scheduled failure mode it consumed.
 *   POST /_control/fail        { path, times = 1, status = 500, mode = 'status', afterChunks = 2,
 *                              retryAfter? } queues failures for the next `times` requests to
 *                              `path`: 'status' answers an OpenAI-style error JSON with that
 *                              status (429 and 503 carry `retry-after`: retryAfter ?? 1 s);
 *                              'midstream' streams `afterChunks` content chunks then destroys
 *                              the socket (non-streaming: half a JSON body, then destroy);
 *                              'hang' never answers; 'close' destroys the socket at once.
 *                              Several calls queue up, consumed in order per path.
 *   POST /_control/delay       { path, ms } latency before every answer on `path` (0 removes).
 *   POST /_control/embeddings  { text, vector } the embedding of exactly `text`, used
 *                              verbatim (zero-padded / truncated to the requested dimensions).
 *
 * CLI: `node dev/stack/offline-model.ts [--port 8790] [--dimensions 1536] [--chunk-delay-ms 15]`.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  estimateTokens,
  extractiveAnswer,
  streamPieces,
  type ChatMessageLike,
} from './offline-model/answer.ts';
import { condensedQuestion } from './offline-model/condense.ts';
import { embedText } from './offline-model/lexical.ts';

export { CONSTANT_WEIGHT, cosine, embedText, tokenize } from './offline-model/lexical.ts';
export { extractiveAnswer } from './offline-model/answer.ts';

export const EMBEDDING_MODEL_ID = 'offline-embedding';
export const CHAT_MODEL_ID = 'offline-chat';
export const DEFAULT_DIMENSIONS = 1536;
export const DEFAULT_CHUNK_DELAY_MS = 15;
/** OpenAI's limit on inputs per embeddings request. */
export const MAX_EMBEDDING_INPUTS = 2048;
/** Largest `dimensions` accepted (pgvector's limit for a vector column). */
export const MAX_DIMENSIONS = 16_000;
/** Recorded requests kept between resets (oldest dropped first). */
const MAX_RECORDED = 1000;
/** Request bodies larger than this are refused with 413. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface OfflineModelOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only: 127.0.0.1 (default), localhost or ::1. */
  host?: string;
  /** Embedding size when a request does not ask for `dimensions`; default 1536. */
  dimensions?: number;
  /** Pause between streamed chat chunks; default 15 ms. */
  chunkDelayMs?: number;
}

export interface OfflineModel {
  /** http://127.0.0.1:PORT */
  url: string;
  /** url + '/v1': the OpenAI base URL. */
  baseUrl: string;
  /** url + '/_control': test controls. */
  controlUrl: string;
  port: number;
  close(): Promise<void>;
}

export type FailureMode = 'status' | 'midstream' | 'hang' | 'close';

export interface FailureSpec {
  path: string;
  times: number;
  status: number;
  mode: FailureMode;
  afterChunks: number;
  /** Seconds for the retry-after header (sent with 429 and 503, or whenever given). */
  retryAfter?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | boolean | undefined>;
  body: unknown;
  /** Date.now() when the request arrived. */
  at: number;
  /** The client disconnected before the response ended. */
  aborted: boolean;
  /** Status sent (null while pending, or when no response head was sent). */
  status: number | null;
  /** The scheduled failure this request consumed, if any. */
  failure: FailureMode | null;
}

interface State {
  requests: RecordedRequest[];
  failures: FailureSpec[];
  delays: Map<string, number>;
  pinned: Map<string, number[]>;
}

class HttpError extends Error {
  status: number;
  type: string;
  param: string | null;
  code: string | null;
  constructor(
    status: number,
    message: string,
    extra: { type?: string; param?: string | null; code?: string | null } = {},
  ) {
    super(message);
    this.status = status;
    this.type = extra.type ?? 'invalid_request_error';
    this.param = extra.param ?? null;
    this.code = extra.code ?? null;
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const SECRET_HEADERS = ['authorization', 'api-key', 'x-api-key', 'proxy-authorization'];

function errorType(status: number): { type: string; code: string | null } {
  if (status === 400 || status === 404 || status === 413 || status === 422)
    return { type: 'invalid_request_error', code: null };
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 403)
    return { type: 'invalid_request_error', code: 'unsupported_country_region_territory' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status === 503) return { type: 'server_error', code: 'service_unavailable' };
  return { type: 'server_error', code: null };
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(res: http.ServerResponse, err: HttpError, headers: Record<string, string> = {}) {
  sendJson(
    res,
    err.status,
    { error: { message: err.message, type: err.type, param: err.param, code: err.code } },
    headers,
  );
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, `Request body larger than ${MAX_BODY_BYTES} bytes.`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function recordHeaders(headers: http.IncomingHttpHeaders): RecordedRequest['headers'] {
  const out: RecordedRequest['headers'] = {};
  for (const [name, value] of Object.entries(headers)) {
    if (SECRET_HEADERS.includes(name) || name === 'cookie') continue;
    out[name] = value;
  }
  // Only whether a key was sent, never the key.
  out.authorization = typeof headers.authorization === 'string' && headers.authorization.length > 0;
  for (const name of SECRET_HEADERS.slice(1)) if (headers[name] !== undefined) out[name] = true;
  return out;
}

/** Resolves after `ms`, or early (false) when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Writes and waits until the chunk is handed to the socket; false once the client is gone. */
function write(res: http.ServerResponse, data: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    res.write(data, (err) => resolve(!err && !res.destroyed));
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalInt(body: Record<string, unknown>, name: string, min: number, max: number) {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, `Invalid '${name}': expected an integer from ${min} to ${max}.`, {
      param: name,
    });
  }
  return value;
}

function requireModel(body: Record<string, unknown>): string {
  if (typeof body.model !== 'string' || !body.model) {
    throw new HttpError(400, 'You must provide a model parameter.', { param: 'model' });
  }
  return body.model;
}

function float32Base64(vector: number[]): string {
  const buf = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => buf.writeFloatLE(v, i * 4));
  return buf.toString('base64');
}

function fitDimensions(vector: number[], dimensions: number): number[] {
  const out = vector.slice(0, dimensions);
  while (out.length < dimensions) out.push(0);
  return out;
}

/** Validates an embeddings request and computes its response body. */
function embeddingsResponse(body: unknown, state: State, defaultDimensions: number) {
  if (!isObject(body)) throw new HttpError(400, 'The request body must be a JSON object.');
  const model = requireModel(body);
  const input = body.input;
  let texts: string[];
  if (typeof input === 'string') texts = [input];
  else if (Array.isArray(input) && input.every((x) => typeof x === 'string')) texts = input;
  else if (Array.isArray(input) && input.every((x) => typeof x === 'number' || Array.isArray(x))) {
    throw new HttpError(
      400,
      "Token arrays are not supported by the offline model: send 'input' as a string or an array of strings.",
      { param: 'input' },
    );
  } else {
    throw new HttpError(400, "'input' must be a string or an array of strings.", {
      param: 'input',
    });
  }
  if (texts.length === 0) {
    throw new HttpError(400, "'input' must not be an empty array.", { param: 'input' });
  }
  if (texts.length > MAX_EMBEDDING_INPUTS) {
    throw new HttpError(
      400,
      `'input' has ${texts.length} items; at most ${MAX_EMBEDDING_INPUTS} inputs are allowed per request.`,
      { param: 'input' },
    );
  }
  const dimensions = optionalInt(body, 'dimensions', 1, MAX_DIMENSIONS) ?? defaultDimensions;
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    throw new HttpError(400, "'encoding_format' must be 'float' or 'base64'.", {
      param: 'encoding_format',
    });
  }
  let promptTokens = 0;
  const data = texts.map((text, index) => {
    promptTokens += estimateTokens(text);
    const pinned = state.pinned.get(text);
    const vector = pinned ? fitDimensions(pinned, dimensions) : embedText(text, dimensions);
    return {
      object: 'embedding' as const,
      index,
      embedding: format === 'base64' ? float32Base64(vector) : vector,
    };
  });
  return {
    object: 'list' as const,
    data,
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}

interface ChatPlan {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  content: string;
  finishReason: 'stop' | 'length';
  promptTokens: number;
}

/** Validates a chat request and decides its whole answer. */
function planChat(body: unknown): ChatPlan {
  if (!isObject(body)) throw new HttpError(400, 'The request body must be a JSON object.');
  const model = requireModel(body);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new HttpError(400, "'messages' must be a non-empty array.", { param: 'messages' });
  }
  for (const [i, m] of messages.entries()) {
    if (!isObject(m) || typeof m.role !== 'string') {
      throw new HttpError(400, `'messages[${i}]' must be an object with a 'role'.`, {
        param: `messages[${i}]`,
      });
    }
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw new HttpError(400, "'stream' must be a boolean.", { param: 'stream' });
  }
  const maxTokens =
    optionalInt(body, 'max_completion_tokens', 1, 1_000_000) ??
    optionalInt(body, 'max_tokens', 1, 1_000_000);
  const streamOptions = isObject(body.stream_options) ? body.stream_options : {};
  const full =
    condensedQuestion(messages as ChatMessageLike[]) ??
    extractiveAnswer(messages as ChatMessageLike[]);
  let content = full;
  let finishReason: ChatPlan['finishReason'] = 'stop';
  if (maxTokens !== undefined && estimateTokens(full) > maxTokens) {
    content = full.slice(0, maxTokens * 4);
    finishReason = 'length';
  }
  let promptChars = 0;
  for (const m of messages as ChatMessageLike[]) {
    promptChars += JSON.stringify(m.content ?? '').length;
  }
  return {
    model,
    stream: body.stream === true,
    includeUsage: streamOptions.include_usage === true,
    content,
    finishReason,
    promptTokens: Math.ceil(promptChars / 4),
  };
}

function usageOf(plan: ChatPlan) {
  const completion = estimateTokens(plan.content);
  return {
    prompt_tokens: plan.promptTokens,
    completion_tokens: completion,
    total_tokens: plan.promptTokens + completion,
  };
}

export async function startOfflineModel(options: OfflineModelOptions = {}): Promise<OfflineModel> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new Error(
      `The offline model binds to loopback only (127.0.0.1, localhost, ::1), not ${host}.`,
    );
  }
  const defaultDimensions = options.dimensions ?? DEFAULT_DIMENSIONS;
  if (
    !Number.isInteger(defaultDimensions) ||
    defaultDimensions < 1 ||
    defaultDimensions > MAX_DIMENSIONS
  ) {
    throw new Error(`dimensions must be an integer from 1 to ${MAX_DIMENSIONS}.`);
  }
  const chunkDelayMs = options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS;
  const state: State = { requests: [], failures: [], delays: new Map(), pinned: new Map() };
  const sockets = new Set<Socket>();
  /** One per in-flight /v1 request: aborted when its client goes away or on close(). */
  const inFlight = new Set<AbortController>();
  let closing: Promise<void> | undefined;
  let url = '';

  function reset() {
    state.requests = [];
    state.failures = [];
    state.delays.clear();
    state.pinned.clear();
  }

  function takeFailure(path: string): FailureSpec | undefined {
    const index = state.failures.findIndex((f) => f.path === path);
    const failure = state.failures[index];
    if (!failure) return undefined;
    failure.times -= 1;
    if (failure.times <= 0) state.failures.splice(index, 1);
    return failure;
  }

  async function handleControl(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    action: string,
    rawBody: string,
  ): Promise<void> {
    const body: unknown = rawBody.trim() ? JSON.parse(rawBody) : {};
    const input = isObject(body) ? body : {};
    const route = `${req.method} ${action}`;
    switch (route) {
      case 'POST reset':
        reset();
        return sendJson(res, 200, { ok: true });
      case 'GET requests': {
        const filter = new URL(req.url ?? '/', 'http://x').searchParams.get('path');
        const list = filter ? state.requests.filter((r) => r.path === filter) : state.requests;
        return sendJson(res, 200, list);
      }
      case 'POST fail': {
        const path = input.path;
        const mode = input.mode ?? 'status';
        if (typeof path !== 'string' || !path.startsWith('/')) {
          throw new HttpError(400, "'path' must be a path such as '/v1/chat/completions'.");
        }
        if (mode !== 'status' && mode !== 'midstream' && mode !== 'hang' && mode !== 'close') {
          throw new HttpError(400, "'mode' must be 'status', 'midstream', 'hang' or 'close'.");
        }
        const times = optionalInt(input, 'times', 1, 1_000_000) ?? 1;
        const status = optionalInt(input, 'status', 400, 599) ?? 500;
        const afterChunks = optionalInt(input, 'afterChunks', 0, 1_000_000) ?? 2;
        const retryAfter = optionalInt(input, 'retryAfter', 0, 3600);
        const spec: FailureSpec = { path, times, status, mode, afterChunks };
        if (retryAfter !== undefined) spec.retryAfter = retryAfter;
        state.failures.push(spec);
        return sendJson(res, 200, { ok: true, scheduled: state.failures });
      }
      case 'POST delay': {
        const path = input.path;
        if (typeof path !== 'string' || !path.startsWith('/')) {
          throw new HttpError(400, "'path' must be a path such as '/v1/embeddings'.");
        }
        const ms = optionalInt(input, 'ms', 0, 600_000) ?? 0;
        if (ms > 0) state.delays.set(path, ms);
        else state.delays.delete(path);
        return sendJson(res, 200, { ok: true, delays: Object.fromEntries(state.delays) });
      }
      case 'POST embeddings': {
        const { text, vector } = input;
        if (typeof text !== 'string') throw new HttpError(400, "'text' must be a string.");
        if (
          !Array.isArray(vector) ||
          vector.length === 0 ||
          !vector.every((x) => typeof x === 'number' && Number.isFinite(x))
        ) {
          throw new HttpError(400, "'vector' must be a non-empty array of finite numbers.");
        }
        state.pinned.set(text, vector as number[]);
        return sendJson(res, 200, { ok: true, pinned: state.pinned.size });
      }
      default:
        throw new HttpError(404, `Unknown control ${route}.`, { type: 'not_found' });
    }
  }

  async function failRequest(
    failure: FailureSpec,
    res: http.ServerResponse,
    entry: RecordedRequest,
  ): Promise<void> {
    entry.failure = failure.mode;
    if (failure.mode === 'close') {
      res.socket?.destroy();
      return;
    }
    if (failure.mode === 'hang') {
      // Never answer: the client gives up (recorded as aborted) or close() ends it.
      return;
    }
    const { type, code } = errorType(failure.status);
    const headers: Record<string, string> = {};
    if (failure.retryAfter !== undefined || failure.status === 429 || failure.status === 503) {
      headers['retry-after'] = String(failure.retryAfter ?? 1);
    }
    sendError(
      res,
      new HttpError(
        failure.status,
        `Simulated failure (status ${failure.status}) from the offline model.`,
        {
          type,
          code,
        },
      ),
      headers,
    );
  }

  async function streamChat(
    plan: ChatPlan,
    res: http.ServerResponse,
    gone: AbortSignal,
    failure: FailureSpec | undefined,
    entry: RecordedRequest,
  ): Promise<void> {
    const id = `chatcmpl-${randomUUID().replaceAll('-', '')}`;
    const created = Math.floor(Date.now() / 1000);
    const usageField = plan.includeUsage ? { usage: null } : {};
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: plan.model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...usageField,
      })}\n\n`;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': `req_${randomUUID().replaceAll('-', '')}`,
    });
    res.flushHeaders();
    if (!(await write(res, chunk({ role: 'assistant', content: '', refusal: null }, null)))) return;
    let sent = 0;
    for (const piece of streamPieces(plan.content)) {
      if (failure?.mode === 'midstream' && sent >= failure.afterChunks) break;
      if (!(await sleep(chunkDelayMs, gone))) return;
      if (!(await write(res, chunk({ content: piece }, null)))) return;
      sent += 1;
    }
    if (failure?.mode === 'midstream') {
      entry.failure = 'midstream';
      res.socket?.destroy();
      return;
    }
    if (!(await write(res, chunk({}, plan.finishReason)))) return;
    if (plan.includeUsage) {
      const usage = `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: plan.model,
        system_fingerprint: null,
        choices: [],
        usage: usageOf(plan),
      })}\n\n`;
      if (!(await write(res, usage))) return;
    }
    if (!(await write(res, 'data: [DONE]\n\n'))) return;
    res.end();
  }

  function sendMidstreamJson(res: http.ServerResponse, body: unknown, entry: RecordedRequest) {
    // A truncated JSON body, then the connection drops.
    const text = JSON.stringify(body);
    entry.failure = 'midstream';
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
  }

  async function handleModelRequest(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    rawBody: string,
  ): Promise<void> {
    let body: unknown = null;
    let parseError = false;
    if (rawBody.trim()) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        parseError = true;
      }
    }
    const entry: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: recordHeaders(req.headers),
      body,
      at: Date.now(),
      aborted: false,
      status: null,
      failure: null,
    };
    state.requests.push(entry);
    if (state.requests.length > MAX_RECORDED) state.requests.shift();

    const clientGone = new AbortController();
    inFlight.add(clientGone);
    res.on('close', () => {
      inFlight.delete(clientGone);
      if (!res.writableFinished && entry.failure !== 'close' && entry.failure !== 'midstream') {
        entry.aborted = true;
      }
      clientGone.abort();
    });
    const originalWriteHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
      entry.status = args[0];
      return originalWriteHead(...args);
    }) as typeof res.writeHead;

    const delay = state.delays.get(path) ?? 0;
    if (delay > 0 && !(await sleep(delay, clientGone.signal))) return;

    const failure = takeFailure(path);
    if (failure && failure.mode !== 'midstream') return failRequest(failure, res, entry);
    if (parseError) throw new HttpError(400, 'The request body is not valid JSON.');

    const route = `${req.method} ${path}`;
    if (route === 'GET /v1/models') {
      const created = 1_700_000_000;
      const models = [EMBEDDING_MODEL_ID, CHAT_MODEL_ID].map((id) => ({
        id,
        object: 'model',
        created,
        owned_by: 'offline-model',
      }));
      return sendJson(res, 200, { object: 'list', data: models });
    }
    if (route === 'POST /v1/embeddings') {
      const response = embeddingsResponse(body, state, defaultDimensions);
      if (failure) return sendMidstreamJson(res, response, entry);
      return sendJson(res, 200, response);
    }
    if (route === 'POST /v1/chat/completions') {
      const plan = planChat(body);
      if (plan.stream) return streamChat(plan, res, clientGone.signal, failure, entry);
      const response = {
        id: `chatcmpl-${randomUUID().replaceAll('-', '')}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: plan.model,
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: plan.content, refusal: null },
            logprobs: null,
            finish_reason: plan.finishReason,
          },
        ],
        usage: usageOf(plan),
      };
      if (failure) return sendMidstreamJson(res, response, entry);
      return sendJson(res, 200, response);
    }
    if (path === '/v1/models' || path === '/v1/embeddings' || path === '/v1/chat/completions') {
      throw new HttpError(405, `Method ${req.method} is not allowed on ${path}.`);
    }
    throw new HttpError(404, `Unknown path ${path}.`, {
      type: 'invalid_request_error',
      code: 'unknown_url',
    });
  }

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/';
    void (async () => {
      try {
        const rawBody = await readBody(req);
        if (path === '/_control' || path.startsWith('/_control/')) {
          await handleControl(req, res, path.slice('/_control/'.length), rawBody);
        } else if (path.startsWith('/v1/') || path === '/v1') {
          await handleModelRequest(req, res, path, rawBody);
        } else if (path === '/' && req.method === 'GET') {
          sendJson(res, 200, {
            name: 'offline-model',
            baseUrl: `${url}/v1`,
            controlUrl: `${url}/_control`,
            models: [EMBEDDING_MODEL_ID, CHAT_MODEL_ID],
          });
        } else {
          throw new HttpError(404, `Unknown path ${path}.`, { code: 'unknown_url' });
        }
      } catch (err) {
        const httpError =
          err instanceof HttpError
            ? err
            : err instanceof SyntaxError
              ? new HttpError(400, 'The request body is not valid JSON.')
              : new HttpError(
                  500,
                  `Offline model error: ${(err as Error)?.message ?? String(err)}`,
                  {
                    type: 'server_error',
                  },
                );
        if (!res.headersSent) sendError(res, httpError);
        else res.destroy();
      }
    })();
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host === 'localhost' ? '127.0.0.1' : host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${host === '::1' ? '[::1]' : '127.0.0.1'}:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    controlUrl: `${url}/_control`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const controller of inFlight) controller.abort();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

function parseCliArgs(argv: string[]): OfflineModelOptions {
  const options: OfflineModelOptions = {};
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = (argv[i] as string).split('=', 2);
    const value = inline ?? argv[(i += 1)];
    const number = Number(value);
    if (flag === '--host') options.host = value;
    else if (value === undefined || !Number.isFinite(number)) {
      throw new Error(`Missing or invalid value for ${flag}.`);
    } else if (flag === '--port') options.port = number;
    else if (flag === '--dimensions') options.dimensions = number;
    else if (flag === '--chunk-delay-ms') options.chunkDelayMs = number;
    else throw new Error(`Unknown option ${flag}.`);
  }
  return options;
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const model = await startOfflineModel(parseCliArgs(process.argv.slice(2)));
  console.log(`offline model listening on ${model.url}`);
  console.log(`  MODEL_BASE_URL=${model.baseUrl}`);
  console.log(`  controls: ${model.controlUrl}`);
  const stop = () => void model.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
