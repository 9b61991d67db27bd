import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { call, seededAdminToken } from '../helpers/auth';
import { storedCounts } from '../helpers/database';

// Size limits come before any body is read, on every module and route, the token check
// included: a declared length over the limit is refused without reading a byte; a streamed
// body is cut off at the route's limit. Each test counts how much of its body the service
// pulled.

const BASE = 'http://kb.test';
const MB = 1024 * 1024;
const UPLOAD_LIMIT = 20 * MB; // MAX_UPLOAD_BYTES in workers/knowledge/wrangler.toml

/** A body of `total` bytes made on demand, counting what the reader pulled. */
function countedBody(total: number, chunk = 64 * 1024) {
  const counter = { pulled: 0 };
  const piece = new Uint8Array(chunk).fill(0x41);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) {
        controller.close();
        return;
      }
      const size = Math.min(chunk, total - counter.pulled);
      counter.pulled += size;
      controller.enqueue(size === chunk ? piece : piece.subarray(0, size));
    },
  });
  return { stream, counter };
}

async function send(
  path: string,
  options: {
    total: number;
    declared?: boolean;
    headers?: Record<string, string>;
    method?: string;
  },
) {
  const { stream, counter } = countedBody(options.total);
  const headers = new Headers(options.headers);
  if (options.declared) headers.set('Content-Length', String(options.total));
  const res = await exports.default.fetch(
    new Request(`${BASE}${path}`, {
      method: options.method ?? 'POST',
      headers,
      body: options.declared ? fixedLengthBody(stream, options.total) : stream,
      // @ts-expect-error duplex is required for streamed request bodies, and not yet typed
      duplex: 'half',
    }),
  );
  const text = await res.text();
  return { status: res.status, text, pulled: counter.pulled };
}

/** A stream whose length is declared up front, so the request carries Content-Length. */
function fixedLengthBody(stream: ReadableStream<Uint8Array>, length: number) {
  const fixed = new FixedLengthStream(length);
  void stream.pipeTo(fixed.writable).catch(() => undefined);
  return fixed.readable;
}

const MULTIPART = { 'Content-Type': 'multipart/form-data; boundary=xyz' };

describe('a declared length over the limit is refused before a byte is read', () => {
  it('an anonymous 96 MB multipart upload: 413, nothing read', async () => {
    const res = await send('/moduleknowledge/upload', {
      total: 96 * MB,
      declared: true,
      headers: MULTIPART,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'file_too_large' });
    expect(res.pulled).toBeLessThan(2 * MB);
  });

  it.each([
    ['DELETE', `/moduleknowledge/file?id=${crypto.randomUUID()}`],
    ['POST', '/moduleauth/login'],
    ['PUT', '/moduleauth/password'],
    ['POST', '/modulechat/chat'],
  ])('%s %s: a 10 MB form (where a token could be) is 413, unread', async (method, path) => {
    const res = await send(path, {
      method,
      total: 10 * MB,
      declared: true,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(413);
    expect(res.pulled).toBeLessThan(2 * MB);
  });
});

describe('a streamed body is cut off at the route’s limit', () => {
  it('an anonymous streamed 96 MB multipart upload: 413, at most the upload limit read', async () => {
    const res = await send('/moduleknowledge/upload', { total: 96 * MB, headers: MULTIPART });
    expect(res.status).toBe(413);
    expect(res.pulled).toBeLessThan(UPLOAD_LIMIT + 2 * MB);
  });

  it('a streamed 1 MB body to a small route (knowledge, auth, chat): 413 after ~its limit', async () => {
    for (const [method, path] of [
      ['DELETE', `/moduleknowledge/file?id=${crypto.randomUUID()}`],
      ['PUT', '/moduleauth/password'],
      ['POST', '/modulechat/chat'],
    ] as const) {
      const res = await send(path, {
        method,
        total: 1 * MB,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status, path).toBe(413);
      expect(res.pulled, path).toBeLessThan(256 * 1024);
    }
  });

  it('an authenticated streamed upload over the limit: 413, nothing stored', async () => {
    const before = await storedCounts(env.FILES);
    const res = await send('/moduleknowledge/upload', {
      total: UPLOAD_LIMIT + 4 * MB,
      headers: { ...MULTIPART, Authorization: `Bearer ${await seededAdminToken()}` },
    });
    expect(res.status).toBe(413);
    expect(res.pulled).toBeLessThan(UPLOAD_LIMIT + 2 * MB);
    expect(await storedCounts(env.FILES)).toEqual(before);
  });
});

describe('the token in a form body, as the spec’s middleware reads it', () => {
  let pdf: Uint8Array;
  beforeAll(() => {
    pdf = makeTextPdf([`Chunked upload with a form token ${crypto.randomUUID()}`]);
  });

  async function multipart(token: string): Promise<Uint8Array> {
    const form = new FormData();
    form.append('t', token);
    form.append('file', new File([pdf], 'chunked.pdf', { type: 'application/pdf' }));
    const request = new Request(BASE, { method: 'POST', body: form });
    return new Uint8Array(await request.arrayBuffer());
  }

  it('a chunked upload authenticated by the form value t is stored (not a 500: the body is read once)', async () => {
    const body = await multipart(await seededAdminToken());
    // The body starts with "--<boundary>\r\n".
    const boundary = new TextDecoder().decode(body.subarray(2, body.indexOf(0x0d)));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < body.length; i += 1000) controller.enqueue(body.subarray(i, i + 1000));
        controller.close();
      },
    });
    const res = await exports.default.fetch(
      new Request(`${BASE}/moduleknowledge/upload`, {
        method: 'POST',
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: stream,
        // @ts-expect-error duplex is required for streamed request bodies, and not yet typed
        duplex: 'half',
      }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ data: { name: 'chunked.pdf' } });
  });
});

describe('each route’s limit, as the README states it', () => {
  it.each([
    ['POST', '/moduleauth/login', 16 * 1024],
    ['POST', '/modulechat/chat', 64 * 1024],
    // An OpenAI-style request carries the conversation's history.
    ['POST', '/modulechat/v1/chat/completions', 1024 * 1024],
    ['POST', '/moduleknowledge/collection', 16 * 1024],
  ] as const)('%s %s takes %i bytes; one more is 413', async (method, path, limit) => {
    const at = await call(path, {
      method,
      body: 'x'.repeat(limit),
      contentType: 'application/json',
    });
    expect(at.status, path).not.toBe(413);
    const over = await call(path, {
      method,
      body: 'x'.repeat(limit + 1),
      contentType: 'application/json',
    });
    expect(over.status, path).toBe(413);
  });
});
