/**
 * Server-Sent Events for `@handler(streamResponse)` methods (spec 4.1, chat behaviour step 1:
 * streaming headers, flushed per message).
 *
 * Framing: a plain message is `data: <json>\n\n`; a named event is
 * `event: <name>\ndata: <json>\n\n`. JSON never holds a raw line break, so one `data:` line
 * always carries the whole message. A stream may end with one raw, non-JSON line
 * (`data: [DONE]\n\n`, the method's `streamEnd`) when it completed.
 */

/** A named event on the stream: `yield sseEvent('sources', list)`. */
export class SseEvent<Name extends string = string, Data = unknown> {
  constructor(
    readonly event: Name,
    readonly data: Data,
  ) {}
}

const EVENT_NAME = /^[A-Za-z0-9_.-]+$/;

export function sseEvent<const Name extends string, Data>(
  event: Name,
  data: Data,
): SseEvent<Name, Data> {
  if (!EVENT_NAME.test(event)) {
    throw new Error(`SSE event names are letters, digits, "_", "." and "-"; got "${event}"`);
  }
  if (event === 'message') throw new Error('"message" is the unnamed event; yield the data itself');
  return new SseEvent(event, data);
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

export function encodeSse(item: unknown): string {
  const data = JSON.stringify(item instanceof SseEvent ? item.data : item) ?? 'null';
  return item instanceof SseEvent ? `event: ${item.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

export interface SseStreamOptions {
  /** Aborts when the client goes away; iteration stops and the iterator is returned. */
  signal?: AbortSignal;
  /** The last message to send when the iterable throws. */
  onError: (err: unknown) => unknown | Promise<unknown>;
  /**
   * Write a first byte at once (a comment, which every SSE reader skips), so the client knows
   * the stream is open before the source has anything to say.
   */
  open?: boolean;
  /**
   * A raw `data:` line written after the last message of a stream that completed (not after
   * a failure's message, nor to a client that went away): OpenAI's `[DONE]`. One line.
   */
  end?: string;
}

/**
 * The SSE body for an async iterable. Each message is written on its own, so it leaves as soon
 * as it is produced. The stream always ends closed: after the last message, after the error
 * message when the iterable throws, and when the client aborts or stops reading, in which case
 * the iterator's `return()` runs so its `finally` blocks release what they hold (a model
 * stream, a database cursor).
 */
export function sseStream(
  source: AsyncIterable<unknown>,
  options: SseStreamOptions,
): ReadableStream<Uint8Array> {
  if (options.end !== undefined && (options.end === '' || /[\r\n]/.test(options.end))) {
    throw new Error('an SSE stream end is one non-empty line');
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  void pump(source, writable.getWriter(), options);
  return readable;
}

/** The comment every stream starts with. */
export const STREAM_OPEN = ': open\n\n';

/** {@link sseStream} as a complete response, for handlers outside mountService. */
export function sseResponse(source: AsyncIterable<unknown>, options: SseStreamOptions): Response {
  return new Response(sseStream(source, options), { status: 200, headers: SSE_HEADERS });
}

async function pump(
  source: AsyncIterable<unknown>,
  writer: WritableStreamDefaultWriter<Uint8Array>,
  options: SseStreamOptions,
): Promise<void> {
  const encoder = new TextEncoder();
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  let clientGone = false;
  const stop = () => {
    clientGone = true;
    void writer.abort().catch(() => undefined);
  };
  // A listener never fires for a signal that aborted before it was added.
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener('abort', stop, { once: true });
  writer.closed.catch(() => (clientGone = true));
  try {
    if (options.open) await writer.write(encoder.encode(STREAM_OPEN));
    while (!clientGone) {
      const step = await iterator.next();
      if (step.done) {
        finished = true;
        if (options.end !== undefined && !clientGone) {
          await writer.write(encoder.encode(`data: ${options.end}\n\n`));
        }
        break;
      }
      if (clientGone) break;
      await writer.write(encoder.encode(encodeSse(step.value)));
    }
  } catch (err) {
    finished = true;
    if (!clientGone)
      await writeLast(writer, encoder, async () => encodeSse(await options.onError(err)));
  } finally {
    options.signal?.removeEventListener('abort', stop);
    if (!finished) await Promise.resolve(iterator.return?.()).catch(() => undefined);
    await writer.close().catch(() => undefined);
  }
}

/** Writes the error message; a failing hook or a gone client must not outlive the stream. */
async function writeLast(
  writer: WritableStreamDefaultWriter<Uint8Array>,
  encoder: TextEncoder,
  message: () => Promise<string>,
): Promise<void> {
  try {
    await writer.write(encoder.encode(await message()));
  } catch {
    // Nothing more can be told to this client; the stream closes below.
  }
}

export interface ParsedSse {
  event: string;
  data: string;
}

/**
 * Reads an SSE body into events (the client side). Follows the WHATWG parsing rules that
 * matter here: events end at a blank line, `data:` lines join with `\n`, one leading space
 * after the colon is dropped, comments (`:`) and unknown fields are ignored, CRLF and CR end
 * lines too. Cancelling the iteration cancels the body.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<ParsedSse> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      // A trailing CR may be the first half of a CRLF split across chunks: hold it back.
      const cut = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
      const lines = buffer.slice(0, cut).split(/\r\n|\r|\n/);
      buffer = (lines.pop() ?? '') + buffer.slice(cut);
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const raw = colon === -1 ? '' : line.slice(colon + 1);
        const text = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
