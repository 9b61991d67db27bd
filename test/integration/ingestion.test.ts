import { env, exports } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTextPdf, manyPagesText } from '../../dev/fixtures/pdf-builder';
import { readSse } from '#shared/service/sse';
import { createUser, seededAdminToken, tokenFor } from '../helpers/auth';
import { queryRows } from '../helpers/database';

// Durable ingestion (src/pipeline/): uploads answer at once when asked to, files go queued →
// processing → ready (or failed) with progress, are never searched half-indexed, can be
// deleted while processing (the work stops) and retried when they failed.
const stack = inject('stack');
const BASE = 'http://kb.test';

let token = '';

type Progress = {
  id: string;
  name: string;
  status: 'queued' | 'processing' | 'ready' | 'failed';
  pages: number;
  pages_done: number;
  chunks: number;
  chunks_done: number;
  error?: { code: string; message: string };
};

const control = (path: string, body?: unknown) =>
  fetch(`${stack.modelControlUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

function call(path: string, init: RequestInit & { as?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${init.as ?? token}`);
  return exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
}

function uploadRequest(bytes: Uint8Array, name: string, query = '', headers: HeadersInit = {}) {
  const form = new FormData();
  form.append('file', new File([bytes], name));
  return call(`/moduleknowledge/upload${query}`, { method: 'POST', body: form, headers });
}

async function status(id: string): Promise<Progress> {
  const res = await call(`/moduleknowledge/file_status?id=${id}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Progress }>()).data;
}

async function until(id: string, done: (p: Progress) => boolean, ms = 60_000): Promise<Progress> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const progress = await status(id);
    if (done(progress)) return progress;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`file ${id} did not get there in ${ms} ms: ${JSON.stringify(await status(id))}`);
}

const rowsOf = async (id: string) =>
  (
    await queryRows<{ chunks: number; pages: number; layouts: number }>(sql`
      select (select count(*)::int from chunks where file_id = ${id}) as chunks,
             (select count(*)::int from file_pages where file_id = ${id}) as pages,
             (select count(*)::int from page_layouts where file_id = ${id}) as layouts`)
  )[0]!;

/** A PDF of `pages` pages, new bytes every time, with a term found nowhere else. */
function freshPdf(pages: number, term: string) {
  return makeTextPdf(manyPagesText(pages).map((text) => `${text}\n\n${term} appears here.`));
}

beforeAll(async () => {
  token = await seededAdminToken();
});

afterEach(async () => {
  await control('/reset', {});
});

describe('an upload that does not wait', () => {
  it('?async=true answers 202 at once; the file goes queued → processing → ready with its progress', async () => {
    const term = `Quorvane${crypto.randomUUID().slice(0, 6)}`;
    const res = await uploadRequest(freshPdf(12, term), 'async.pdf', '?async=true');
    expect(res.status).toBe(202);
    const { data } = await res.json<{ data: Progress & { duplicate: boolean } }>();
    expect(data).toMatchObject({ name: 'async.pdf', duplicate: false });
    expect(['queued', 'processing']).toContain(data.status);
    const ready = await until(data.id, (p) => p.status === 'ready');
    expect(ready).toMatchObject({ pages: 12, pages_done: 12 });
    expect(ready.chunks).toBeGreaterThan(0);
    expect(ready.chunks_done).toBe(ready.chunks);
    expect(ready.error).toBeUndefined();
    expect(await rowsOf(data.id)).toEqual({ chunks: ready.chunks, pages: 12, layouts: 0 });
    const list = await call(`/moduleknowledge/list?file_id=${data.id}`);
    expect((await list.json<{ data: Progress[] }>()).data[0]).toMatchObject({
      status: 'ready',
      chunks: ready.chunks,
    });
  });

  it('Prefer: respond-async does the same', async () => {
    const res = await uploadRequest(freshPdf(2, 'Prefertest'), 'prefer.pdf', '', {
      Prefer: 'respond-async',
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('Preference-Applied')).toBe('respond-async');
    const { data } = await res.json<{ data: Progress }>();
    await until(data.id, (p) => p.status === 'ready');
  });

  it('file_progress streams each change until the file is ready', async () => {
    await control('/delay', { path: '/v1/embeddings', ms: 30 });
    const res = await uploadRequest(freshPdf(30, 'Progressterm'), 'progress.pdf', '?async=true');
    const { data } = await res.json<{ data: Progress }>();
    const stream = await call(`/moduleknowledge/file_progress?id=${data.id}`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const seen: Progress[] = [];
    for await (const { event, data: text } of readSse(stream.body!)) {
      expect(event).toBe('message');
      seen.push(JSON.parse(text) as Progress);
    }
    expect(seen.at(-1)!.status).toBe('ready');
    expect(seen.length).toBeGreaterThan(2);
    // Progress only moves forward.
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.pages_done).toBeGreaterThanOrEqual(seen[i - 1]!.pages_done);
      expect(seen[i]!.chunks_done).toBeGreaterThanOrEqual(seen[i - 1]!.chunks_done);
    }
  });
});

describe('a file is searchable only once it is ready', () => {
  it('while its chunks are being stored, a query finds none of them; once ready, it does', async () => {
    // Embeddings slowed down: the file spends seconds with some chunks stored and not ready.
    await control('/delay', { path: '/v1/embeddings', ms: 40 });
    const term = `Zelquarith${crypto.randomUUID().slice(0, 6)}`;
    const res = await uploadRequest(freshPdf(40, term), 'half.pdf', '?async=true');
    const { data } = await res.json<{ data: Progress }>();
    let sawPartial = false;
    for (;;) {
      const found = await call(
        `/moduleknowledge/query?text=${encodeURIComponent(term)}&file_id=${data.id}`,
      );
      const matches = (await found.json<{ data: unknown[] }>()).data;
      // Read after the query: a file still not ready now was not ready when it was searched.
      const [progress, rows] = await Promise.all([status(data.id), rowsOf(data.id)]);
      if (progress.status === 'ready') break;
      if (rows.chunks > 0) sawPartial = true;
      expect(matches, `status ${progress.status}, ${rows.chunks} chunks stored`).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sawPartial).toBe(true);
    const found = await call(
      `/moduleknowledge/query?text=${encodeURIComponent(term)}&file_id=${data.id}`,
    );
    expect((await found.json<{ data: unknown[] }>()).data.length).toBeGreaterThan(0);
  });
});

describe('deleting a file that is being processed', () => {
  it('stops its work: nothing of it is left, and nothing comes back', async () => {
    await control('/delay', { path: '/v1/embeddings', ms: 40 });
    const res = await uploadRequest(freshPdf(40, 'Deletedterm'), 'deleted.pdf', '?async=true');
    const { data } = await res.json<{ data: Progress }>();
    await until(data.id, (p) => p.chunks_done > 0);
    expect((await call(`/moduleknowledge/file?id=${data.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await call(`/moduleknowledge/file_status?id=${data.id}`)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await rowsOf(data.id)).toEqual({ chunks: 0, pages: 0, layouts: 0 });
    expect(await env.FILES.head(data.id)).toBeNull();
  });
});

describe('a failed file', () => {
  it('says why, and can be retried: it then finishes with each chunk once', async () => {
    await control('/fail', { path: '/v1/embeddings', times: 200, status: 500 });
    const res = await uploadRequest(freshPdf(3, 'Retryterm'), 'retry.pdf', '?async=true');
    const { data } = await res.json<{ data: Progress }>();
    const failed = await until(data.id, (p) => p.status === 'failed');
    expect(failed.error).toMatchObject({ code: 'model_unavailable' });
    expect(failed.error!.message).toMatch(/retry/i);

    await control('/reset', {});
    const retried = await call('/moduleknowledge/file_retry', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: data.id }),
    });
    expect(retried.status).toBe(200);
    const ready = await until(data.id, (p) => p.status === 'ready');
    expect(ready.error).toBeUndefined();
    expect((await rowsOf(data.id)).chunks).toBe(ready.chunks);
  });

  it('only its uploader or a super admin may retry it', async () => {
    await control('/fail', { path: '/v1/embeddings', times: 200, status: 500 });
    const res = await uploadRequest(freshPdf(2, 'Otherretry'), 'other.pdf', '?async=true');
    const { data } = await res.json<{ data: Progress }>();
    await until(data.id, (p) => p.status === 'failed');
    const stranger = await createUser();
    const strangerToken = await tokenFor(stranger.username, stranger.password);
    const refused = await call('/moduleknowledge/file_retry', {
      method: 'POST',
      as: strangerToken,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: data.id }),
    });
    expect(refused.status).toBe(403);
  });
});
