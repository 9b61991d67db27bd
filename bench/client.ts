// A small HTTP client of the service's public API for benchmarks and load runs (loopback only).
// Every request is bounded: a service that stops answering makes a run fail with a reason, never
// wait forever (fetch's own bounds are 5 minutes per wait, and a stream may trickle for longer).

/** How long one request (a whole chat stream included) may take unless the caller says. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** True for the error a request bounded by {@link REQUEST_TIMEOUT_MS} (or a timeout signal) throws. */
export function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

export interface Timed<T> {
  ms: number;
  value: T;
}

export function assertLoopback(url: string): void {
  const { hostname } = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(hostname)) {
    throw new Error(`refusing to send load to ${hostname}: loopback only`);
  }
}

export async function login(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/moduleauth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

export async function upload(base: string, token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  // A copy, typed as backed by an ArrayBuffer: a File takes no shared memory (and bench/viewer.ts
  // type-checks this file with DOM types, which say so).
  form.append('file', new File([bytes.slice()], name, { type: 'application/pdf' }));
  const res = await fetch(`${base}/moduleknowledge/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = await res.text();
  return {
    status: res.status,
    data: res.status === 200 ? (JSON.parse(body).data as { id: string }) : undefined,
  };
}

export interface ChatRun {
  status: number;
  /** ms from sending to the first byte of the body. */
  firstByteMs: number;
  /** ms to the first answer chunk (the second `content` message; the first echoes the prompt). */
  firstAnswerMs: number | undefined;
  totalMs: number;
  /**
   * How the stream ended: done, error (type error message), broken, or timeout (no end within
   * the time allowed; status 0 when not even the headers came).
   */
  ending: 'done' | 'error' | 'broken' | 'timeout';
  /** The conversation the turn was stored in (the stream's first event). */
  conversationId: string | undefined;
}

/** Sends one chat and reads the SSE body to its end, timing the first byte and first answer chunk. */
export async function chat(
  base: string,
  token: string,
  prompt: string,
  options: { conversationId?: string; timeoutMs?: number } = {},
): Promise<ChatRun> {
  const started = performance.now();
  const signal = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(`${base}/modulechat/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        prompt,
        ...(options.conversationId ? { conversation_id: options.conversationId } : {}),
      }),
      signal,
    });
  } catch (err) {
    if (!isTimeout(err)) throw err;
    const ms = performance.now() - started;
    return {
      status: 0,
      firstByteMs: ms,
      firstAnswerMs: undefined,
      totalMs: ms,
      ending: 'timeout',
      conversationId: undefined,
    };
  }
  if (res.status !== 200 || !res.body) {
    await res.arrayBuffer().catch(() => undefined);
    const ms = performance.now() - started;
    return {
      status: res.status,
      firstByteMs: ms,
      firstAnswerMs: undefined,
      totalMs: ms,
      ending: 'broken',
      conversationId: undefined,
    };
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let firstByteMs = 0;
  let firstAnswerMs: number | undefined;
  let contentMessages = 0;
  let ending: ChatRun['ending'] = 'broken';
  let conversationId: string | undefined;
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - started;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.startsWith('event: done')) ending = 'done';
        else if (event.startsWith('event: conversation\ndata: ')) {
          const told = JSON.parse(event.slice(event.indexOf('data: ') + 6)) as {
            conversation_id: string;
          };
          conversationId = told.conversation_id;
        } else if (event.startsWith('data: ')) {
          const message = JSON.parse(event.slice(6)) as { type: string };
          if (message.type === 'error') ending = 'error';
          else if (++contentMessages === 2) firstAnswerMs = performance.now() - started;
        }
      }
    }
  } catch {
    ending = signal.aborted ? 'timeout' : 'broken';
  }
  return {
    status: 200,
    firstByteMs,
    firstAnswerMs,
    totalMs: performance.now() - started,
    ending,
    conversationId,
  };
}
