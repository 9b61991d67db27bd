import { describe, expect, it, vi } from 'vitest';
import { encodeSse, readSse, SSE_HEADERS, sseEvent, sseResponse, sseStream } from './sse';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('encodeSse', () => {
  it.each([
    [{ a: 1 }, 'data: {"a":1}\n\n'],
    ['multi\nline', 'data: "multi\\nline"\n\n'],
    [null, 'data: null\n\n'],
    [undefined, 'data: null\n\n'],
    [sseEvent('sources', ['x']), 'event: sources\ndata: ["x"]\n\n'],
  ])('%j', (item, text) => {
    expect(encodeSse(item)).toBe(text);
  });

  it.each(['has space', 'new\nline', 'colon:', ''])('refuses the event name %j', (name) => {
    expect(() => sseEvent(name, 1)).toThrow(/SSE event names/);
  });

  it('refuses to name an event "message"', () => {
    expect(() => sseEvent('message', 1)).toThrow(/unnamed event/);
  });
});

describe('readSse', () => {
  it('parses events split anywhere across chunks', async () => {
    const text = 'event: sources\ndata: ["a"]\n\ndata: {"b":1}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      const events = await collect(readSse(streamOf([text.slice(0, cut), text.slice(cut)])));
      expect(events).toEqual([
        { event: 'sources', data: '["a"]' },
        { event: 'message', data: '{"b":1}' },
      ]);
    }
  });

  it('follows the WHATWG rules: CRLF, comments, joined data lines, no-space values', async () => {
    const events = await collect(
      readSse(
        streamOf([
          ': keep-alive\r\n\r\nevent:tick\r\ndata:1\r\ndata: 2\r\nid: 9\r\n\r\n',
          'data: tail',
        ]),
      ),
    );
    expect(events).toEqual([{ event: 'tick', data: '1\n2' }]);
  });

  it('handles a CRLF split between chunks as one line end', async () => {
    const events = await collect(readSse(streamOf(['data: a\r', '\n\r', '\ndata: b\n\n'])));
    expect(events).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('cancels the body when the consumer stops early', async () => {
    const cancel = vi.fn();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
      },
      cancel,
    });
    for await (const event of readSse(body)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancel).toHaveBeenCalled();
  });
});

describe('sseStream', () => {
  it('writes each message, then closes', async () => {
    async function* source() {
      yield { n: 1 };
      yield sseEvent('done', true);
    }
    const text = await new Response(sseStream(source(), { onError: () => 'x' })).text();
    expect(text).toBe('data: {"n":1}\n\nevent: done\ndata: true\n\n');
  });

  it('flushes a message before the next one is produced', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* source() {
      yield 'first';
      await gate;
      yield 'second';
    }
    const reader = sseStream(source(), { onError: () => 'x' }).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: "first"\n\n');
    release();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: "second"\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('writes the error hook message when the source throws, then closes', async () => {
    async function* source() {
      yield 1;
      throw new Error('boom');
    }
    const onError = vi.fn(async (err: unknown) =>
      sseEvent('error', { message: (err as Error).message }),
    );
    const text = await new Response(sseStream(source(), { onError })).text();
    expect(text).toBe('data: 1\n\nevent: error\ndata: {"message":"boom"}\n\n');
  });

  it('still closes when the error hook itself throws', async () => {
    async function* source() {
      yield 1;
      throw new Error('boom');
    }
    const text = await new Response(
      sseStream(source(), {
        onError: () => {
          throw new Error('hook broke');
        },
      }),
    ).text();
    expect(text).toBe('data: 1\n\n');
  });

  it('returns the iterator when the signal aborts', async () => {
    const returned = vi.fn();
    const controller = new AbortController();
    async function* source() {
      try {
        for (;;) {
          yield 'tick';
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      } finally {
        returned();
      }
    }
    const reader = sseStream(source(), {
      signal: controller.signal,
      onError: () => 'x',
    }).getReader();
    await reader.read();
    controller.abort();
    await vi.waitFor(() => expect(returned).toHaveBeenCalledOnce());
  });

  it('does not iterate at all once the signal has aborted before the first message', async () => {
    const controller = new AbortController();
    controller.abort();
    const next = vi.fn(async () => ({ done: false as const, value: 'x' }));
    const returnFn = vi.fn(async () => ({ done: true as const, value: undefined }));
    const source = { [Symbol.asyncIterator]: () => ({ next, return: returnFn }) };
    sseStream(source, { signal: controller.signal, onError: () => 'x' });
    await vi.waitFor(() => expect(returnFn).toHaveBeenCalledOnce());
    expect(next).not.toHaveBeenCalled();
  });

  it('builds a complete response with the streaming headers', async () => {
    async function* source() {
      yield 'a';
    }
    const response = sseResponse(source(), { onError: () => 'x' });
    for (const [name, value] of Object.entries(SSE_HEADERS))
      expect(response.headers.get(name)).toBe(value);
    expect(await response.text()).toBe('data: "a"\n\n');
  });
});
