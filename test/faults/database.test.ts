import { env, exports } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENGLISH_POLICY_FIXTURE, makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { storedCounts } from '../helpers/database';

const stack = inject('stack');
const BASE = 'http://kb.test';
let token = '';

const database = (action: 'suspend' | 'resume') =>
  fetch(`${stack.stackControlUrl}/database/${action}`, { method: 'POST' });
const model = (path: string, body?: unknown) =>
  fetch(`${stack.modelControlUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const call = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(
    new Request(`${BASE}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...init.headers },
    }),
  );

function upload(bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new File([bytes], name));
  return call('/moduleknowledge/upload', { method: 'POST', body: form });
}

const counts = () => storedCounts(env.FILES);

beforeAll(async () => {
  const res = await exports.default.fetch(
    new Request(`${BASE}/moduleauth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(stack.admin),
    }),
  );
  token = (await res.json<{ data: { token: string } }>()).data.token;
});

afterEach(async () => {
  await database('resume');
  await model('/reset', {});
});

describe('the database is down at request time', () => {
  it.each([
    ['auth', '/moduleauth/me', {}],
    ['knowledge', '/moduleknowledge/list', {}],
    ['knowledge health', '/moduleknowledge/health', {}],
    [
      'chat',
      '/modulechat/chat',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ prompt: 'Marrowbank' }),
      },
    ],
  ])('%s answers 503 with the JSON error shape, quickly', async (_, path, init) => {
    await database('suspend');
    const started = Date.now();
    const res = await call(path, init);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 503, code: 'database_unavailable' });
    // Bounded by the driver's connect timeout (5 s); a refused connection fails at once.
    expect(elapsed).toBeLessThan(10_000);
  });

  it('everything works again once it is back', async () => {
    await database('suspend');
    expect((await call('/moduleauth/me')).status).toBe(503);
    await database('resume');
    expect((await call('/moduleauth/me')).status).toBe(200);
    expect((await call('/moduleknowledge/list')).status).toBe(200);
  });
});

describe('the database goes away in the middle of an upload', () => {
  it('before the upload is recorded: 503, no row and no stored object; the same upload then succeeds', async () => {
    const pdf = makeTextPdf(ENGLISH_POLICY_FIXTURE.pages.map((p) => `${p}\nEarly ${Date.now()}`));
    const before = await counts();
    await database('suspend');
    const res = await upload(pdf, 'early.pdf');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'database_unavailable' });
    await database('resume');
    expect(await counts()).toEqual(before);
    const again = await upload(pdf, 'early.pdf');
    expect(again.status).toBe(200);
    expect((await counts()).files).toBe(before.files + 1);
  });

  it('while it is ingested: the ingest waits the outage out, and the upload answers when the file is ready', async () => {
    const pdf = makeTextPdf(ENGLISH_POLICY_FIXTURE.pages.map((p) => `${p}\nFault ${Date.now()}`));
    const before = await counts();
    await model('/delay', { path: '/v1/embeddings', ms: 200 });
    const uploading = upload(pdf, 'fault.pdf');
    // The file is stored and the model is working: now the database goes away for a while.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      const seen = await (await model('/requests')).json<{ path: string; status: number }[]>();
      if (seen.some((r) => r.path === '/v1/embeddings' && r.status === 200)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await database('suspend');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await database('resume');
    await model('/reset', {});
    const res = await uploading;
    expect(res.status, await res.clone().text()).toBe(200);
    const { data } = await res.json<{ data: { status: string; chunks: number } }>();
    expect(data.status).toBe('ready');
    const after = await counts();
    expect(after.files).toBe(before.files + 1);
    // Every chunk exactly once, though steps ran again after the outage.
    expect(after.chunks).toBe(before.chunks + data.chunks);
  });
});
