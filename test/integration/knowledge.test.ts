import { env, exports } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  CHINESE_POLICY_FIXTURE,
  ENGLISH_POLICY_FIXTURE,
  makeEncryptedPdf,
  makeManyPagesPdf,
  makeScannedPdf,
  makeTextPdf,
} from '../../dev/fixtures/pdf-builder';
import { openPool } from '#shared/db/database';
import { storedCounts } from '../helpers/database';
import { nearestChunksQuery } from '../../workers/knowledge/src/store/files';

const stack = inject('stack');
const BASE = 'http://kb.test';

type Uploaded = { id: string; name: string; pages: number; chunks: number; duplicate: boolean };
type Match = {
  id: number;
  similarity: number;
  content: string;
  file_id: string;
  file_name: string;
  page: number;
};

let token = '';
const auth = () => ({ Authorization: `Bearer ${token}` });

async function call(path: string, init: RequestInit = {}) {
  return exports.default.fetch(
    new Request(`${BASE}${path}`, { ...init, headers: { ...auth(), ...init.headers } }),
  );
}

async function upload(bytes: Uint8Array, name = 'policy.pdf', type = 'application/pdf') {
  const form = new FormData();
  form.append('file', new File([bytes], name, { type }));
  return call('/moduleknowledge/upload', { method: 'POST', body: form });
}

async function uploadOk(bytes: Uint8Array, name?: string): Promise<Uploaded> {
  const res = await upload(bytes, name);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Uploaded }>()).data;
}

async function query(params: Record<string, string>): Promise<Match[]> {
  const res = await call(`/moduleknowledge/query?${new URLSearchParams(params)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Match[] }>()).data;
}

const counts = () => storedCounts(env.FILES);

const control = (path: string, body?: unknown) =>
  fetch(`${stack.modelControlUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const english = makeTextPdf(ENGLISH_POLICY_FIXTURE.pages);
const chinese = makeTextPdf(CHINESE_POLICY_FIXTURE.pages);
let englishFile: Uploaded;
let chineseFile: Uploaded;

beforeAll(async () => {
  const res = await exports.default.fetch(
    new Request(`${BASE}/moduleauth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(stack.admin),
    }),
  );
  token = (await res.json<{ data: { token: string } }>()).data.token;
  englishFile = await uploadOk(english, 'riverton-charter.pdf');
  chineseFile = await uploadOk(chinese, '住房与交通政策.pdf');
});

describe('upload', () => {
  it('stores an English and a Chinese PDF with their pages and chunks', () => {
    expect(englishFile).toMatchObject({ name: 'riverton-charter.pdf', pages: 3, duplicate: false });
    expect(englishFile.chunks).toBeGreaterThan(2);
    expect(chineseFile).toMatchObject({ name: '住房与交通政策.pdf', pages: 2, duplicate: false });
  });

  it('answers the stored file for the same bytes again, embedding nothing', async () => {
    await control('/reset', {});
    const again = await uploadOk(english, 'copy.pdf');
    expect(again).toEqual({ ...englishFile, duplicate: true });
    const requests = await (await control('/requests')).json<{ path: string }[]>();
    expect(requests.filter((r) => r.path === '/v1/embeddings')).toEqual([]);
  });

  it('refuses without a token', async () => {
    const form = new FormData();
    form.append('file', new File([english], 'x.pdf'));
    const res = await exports.default.fetch(
      new Request(`${BASE}/moduleknowledge/upload`, { method: 'POST', body: form }),
    );
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('Unauthorised');
  });
});

// The start of a PNG image and of a ZIP archive holding one text file.
const PNG_BYTES = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
const ZIP_BYTES = new Uint8Array([
  0x50,
  0x4b,
  0x03,
  0x04,
  0x14,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  5,
  0,
  0,
  0,
  ...new TextEncoder().encode('a.txt'),
]);

describe('bad input answers 4xx and writes nothing', () => {
  it.each([
    // What a file is comes from its bytes: a PNG named .pdf is not a document.
    ['a PNG image named .pdf', () => PNG_BYTES, 415, 'unsupported_format'],
    ['a ZIP archive that is no Word document', () => ZIP_BYTES, 415, 'unsupported_format'],
    ['an empty file', () => new Uint8Array(0), 422, 'document_no_text'],
    ['an encrypted PDF', () => makeEncryptedPdf(), 422, 'pdf_encrypted'],
    // OCR reads the two pages of a 32×32-pixel image and finds nothing legible.
    ['a scan without text', () => makeScannedPdf(2), 422, 'pdf_ocr_no_text'],
    ['a truncated PDF', () => english.slice(0, Math.floor(english.length / 3)), 422, 'pdf_corrupt'],
    ['random bytes behind %PDF-', () => randomPdf(), 422, 'pdf_corrupt'],
    ['more pages than allowed', () => makeManyPagesPdf(501), 422, 'pdf_too_many_pages'],
  ])(
    '%s',
    async (_, make, status, code) => {
      const before = await counts();
      const res = await upload(make(), '../../etc/passwd.pdf');
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const problem = await res.json<{ code: string; detail: string }>();
      expect(problem.code).toBe(code);
      expect(problem.detail).not.toMatch(/pdf\.js|\n\s+at |Error:/);
      expect(await counts()).toEqual(before);
    },
    // The scan is read by the real OCR engine: two pages take 15 s on a quiet 2-core machine,
    // over 30 s on a busy one (and a timed-out upload still running upsets the next case's counts).
    120_000,
  );

  it('a file over the size limit: 413', async () => {
    const before = await counts();
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(new TextEncoder().encode('%PDF-1.4\n'));
    const res = await upload(big);
    expect(res.status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it('a request without the file part: 400 naming the field', async () => {
    const res = await call('/moduleknowledge/upload', { method: 'POST', body: new FormData() });
    expect(res.status).toBe(400);
    const problem = await res.json<{ errors: { field: string }[] }>();
    expect(problem.errors.map((e) => e.field)).toContain('file');
  });
});

describe('embedding fails half-way through a file', () => {
  it('leaves no file row, page, chunk or stored object; the same upload then succeeds', async () => {
    const pdf = makeTextPdf(
      ENGLISH_POLICY_FIXTURE.pages.map((p) => `${p}\nHalf-way ${Date.now()}`),
    );
    const before = await counts();
    await control('/reset', {});
    try {
      await control('/delay', { path: '/v1/embeddings', ms: 200 });
      const uploading = upload(pdf, 'half-way.pdf');
      // Let the first batch be answered, then make every later request fail (SDK retries too).
      await waitFor(async () => {
        const seen = await (await control('/requests')).json<{ path: string; status: number }[]>();
        return seen.some((r) => r.path === '/v1/embeddings' && r.status === 200);
      });
      await control('/fail', { path: '/v1/embeddings', times: 20, status: 500 });
      const res = await uploading;
      expect(res.status).toBe(502);
      expect((await res.json<{ code: string }>()).code).toBe('model_unavailable');
      const served = await (await control('/requests')).json<{ status: number }[]>();
      expect(served.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
      expect(served.filter((r) => r.status === 500).length).toBeGreaterThanOrEqual(1);
      expect(await counts()).toEqual(before);
    } finally {
      await control('/reset', {});
    }
    const retried = await uploadOk(pdf, 'half-way.pdf');
    expect(retried.duplicate).toBe(false);
    expect((await counts()).files).toBe(before.files + 1);
  });
});

describe('list', () => {
  it('lists files newest first with uploader, size, pages, chunks', async () => {
    const res = await call('/moduleknowledge/list');
    const files = (await res.json<{ data: Record<string, unknown>[] }>()).data;
    const english = files.find((f) => f.id === englishFile.id)!;
    expect(english).toMatchObject({
      name: 'riverton-charter.pdf',
      pages: 3,
      chunks: englishFile.chunks,
      size: expect.any(Number),
      uploader: { username: stack.admin.username },
    });
    expect(english).not.toHaveProperty('content');
  });

  it('filters by file_id (comma-joined) and includes the text with with_content', async () => {
    const res = await call(
      `/moduleknowledge/list?file_id=${chineseFile.id},${englishFile.id}&with_content=true`,
    );
    const files = (await res.json<{ data: { id: string; content: string }[] }>()).data;
    expect(files.map((f) => f.id).sort()).toEqual([chineseFile.id, englishFile.id].sort());
    expect(files.find((f) => f.id === chineseFile.id)!.content).toContain('住房补贴');
  });

  it('refuses a malformed file_id with 400', async () => {
    const res = await call(`/moduleknowledge/list?file_id=1' or '1'='1`);
    expect(res.status).toBe(400);
  });
});

describe('query', () => {
  it('finds the right English chunk first, with its page', async () => {
    // Other test files upload PDFs with the same text at the same time: unscoped, the best
    // chunk may be their copy, so only the text and page are this file's for certain.
    const [best] = await query({ text: 'Marrowbank refund' });
    expect(best).toMatchObject({ page: 1 });
    expect(best!.content).toContain('Marrowbank');
    expect(typeof best!.similarity).toBe('number');
    const [own] = await query({ text: 'Marrowbank refund', file_id: englishFile.id });
    expect(own).toMatchObject({
      file_id: englishFile.id,
      file_name: 'riverton-charter.pdf',
      page: 1,
    });
  });

  it('finds the right Chinese chunk first, with its page', async () => {
    const [best] = await query({ text: '银杉卡 地铁7号线' });
    expect(best).toMatchObject({ page: 2 });
    expect(best!.content).toContain('银杉卡');
    const [own] = await query({ text: '银杉卡 地铁7号线', file_id: chineseFile.id });
    expect(own).toMatchObject({ file_id: chineseFile.id, page: 2 });
  });

  it('sorts by similarity, highest first, and honours top (mode=vector)', async () => {
    const results = await query({ text: 'housing subsidy eligibility', top: '3', mode: 'vector' });
    expect(results.length).toBeLessThanOrEqual(3);
    const sims = results.map((r) => r.similarity);
    expect(sims).toEqual([...sims].sort((a, b) => b - a));
  });

  it('limits results to the given files', async () => {
    const results = await query({ text: 'Marrowbank refund', file_id: chineseFile.id });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.file_id === chineseFile.id)).toBe(true);
  });

  it('validates text and top', async () => {
    expect((await call('/moduleknowledge/query?text=')).status).toBe(400);
    expect((await call('/moduleknowledge/query?text=x&top=0')).status).toBe(400);
    expect((await call('/moduleknowledge/query?text=x&top=51')).status).toBe(400);
  });

  it('treats SQL and pgvector operators in the text as text', async () => {
    const results = await query({ text: "'; drop table chunks; -- <=> <-> ::vector" });
    expect(Array.isArray(results)).toBe(true);
    expect((await counts()).chunks).toBeGreaterThan(0);
  });

  it('is served by the HNSW index (distance ascending with LIMIT)', async () => {
    const { db, close } = openPool({ url: stack.databaseUrl, proxy: stack.databaseProxy }, {});
    try {
      const plan = await db.transaction(async (tx) => {
        // Few rows make a sequential scan cheaper; forbid it to see whether the index CAN serve.
        await tx.execute(sql`set local enable_seqscan = off`);
        const vector = Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0));
        const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(
          sql`explain ${nearestChunksQuery(vector, { top: 10 })}`,
        );
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('chunks_embedding_hnsw_idx');
    } finally {
      await close();
    }
  });

  it('is the same over RPC, with the spec’s QueryReq mapped to text/top', async () => {
    const viaHttp = await query({ text: 'Orvindale appeals', top: '5' });
    const viaRpc = await env.KNOWLEDGE_RPC.GetQuery(
      { text: 'Orvindale appeals', top: 5 },
      { identity: { token } },
    );
    // Over RPC the answer also tells the caller what its embedding cost (chat's usage).
    expect(viaRpc).toEqual({
      ok: true,
      data: viaHttp,
      usage: { embedding_tokens: expect.any(Number) },
    });
  });

  it('refuses an RPC call without a valid identity', async () => {
    const result = await env.KNOWLEDGE_RPC.GetQuery(
      { text: 'x', top: 1 },
      { identity: { token: 'bad' } },
    );
    expect(result).toMatchObject({ ok: false, error: { status: 401, code: 'unauthenticated' } });
  });
});

describe('download and delete', () => {
  it('downloads the original bytes with a safe Content-Disposition', async () => {
    const res = await call(`/moduleknowledge/download?id=${chineseFile.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="[^"\\/]*"; filename\*=UTF-8''/,
    );
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(chinese);
  });

  it('stores the client name sanitised, never as given', async () => {
    const file = await uploadOk(
      makeTextPdf(['Sanitised name test Quillfeather.']),
      '../../etc/\u202Epasswd',
    );
    expect(file.name).toBe('passwd.pdf');
  });

  it('deletes a file with its chunks and original', async () => {
    const file = await uploadOk(
      makeTextPdf(['Deletion test about Zephyrine gardens.']),
      'gone.pdf',
    );
    const res = await call(`/moduleknowledge/file?id=${file.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect((await call(`/moduleknowledge/download?id=${file.id}`)).status).toBe(404);
    expect(await env.FILES.head(file.id)).toBeNull();
    const results = await query({ text: 'Zephyrine gardens' });
    expect(results.some((r) => r.file_id === file.id)).toBe(false);
    expect((await call(`/moduleknowledge/file?id=${file.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
  });
});

function randomPdf(): Uint8Array {
  const bytes = crypto.getRandomValues(new Uint8Array(4096));
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
  return bytes;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
