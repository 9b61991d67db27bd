import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createUser, tokenFor, type TestUser } from '../helpers/auth';
import { queryRows } from '../helpers/database';

// A file's chunks as keepers read, correct and switch them off (GetChunks, PutChunk,
// PutFileEnabled): a correction is searched as corrected the moment it is answered; switched-off
// chunks and files are never retrieved (query, every mode; chat's files mode) and come back at
// once; readers read, only whoever may manage the file changes anything.

interface FileChunk {
  id: number;
  index: number;
  page: number;
  section: string | null;
  heading_path: string | null;
  text: string;
  text_source: string | null;
  enabled: boolean;
  edited_by: string | null;
  edited_at: string | null;
  original_text: string | null;
  embedding_model: string | null;
}

interface FileChunks {
  file_id: string;
  items: FileChunk[];
  page: number;
  size: number;
  total: number;
}

interface QueryResult {
  id: number;
  file_id: string;
  content: string;
}

const stack = inject('stack');
const MODES = ['hybrid', 'vector', 'keyword'] as const;

let owner: TestUser;
let ownerToken = '';
let viewerToken = '';
let outsiderToken = '';
let collectionId = '';
let fileId = '';
let otherFileId = '';
const tag = crypto.randomUUID().slice(0, 8);

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

const chunksOf = async (id: string, query = '', token = ownerToken) =>
  json<FileChunks>(await call(`/moduleknowledge/chunks?file_id=${id}${query}`, { token }));

const putChunk = (body: unknown, token = ownerToken) =>
  call('/moduleknowledge/chunk', { method: 'PUT', json: body, token });

const putFileEnabled = (body: unknown, token = ownerToken) =>
  call('/moduleknowledge/file_enabled', { method: 'PUT', json: body, token });

/** The chunk ids a query finds in the collection, in one mode. */
async function found(text: string, mode: (typeof MODES)[number]): Promise<number[]> {
  const results = await json<QueryResult[]>(
    await call(
      `/moduleknowledge/query?text=${encodeURIComponent(text)}&collection_id=${collectionId}&mode=${mode}&top=50`,
      { token: ownerToken },
    ),
  );
  return results.map((result) => result.id);
}

const control = (path: string, body: unknown) =>
  fetch(`${stack.modelControlUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function upload(name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('collection_id', collectionId);
  form.append('file', new File([text], name, { type: 'text/markdown' }));
  const res = await call('/moduleknowledge/upload', {
    method: 'POST',
    body: form,
    token: ownerToken,
  });
  return (await json<{ id: string }>(res)).id;
}

beforeAll(async () => {
  const [viewer, outsider] = await Promise.all([createUser(), createUser()]);
  owner = await createUser();
  const tokens = await Promise.all(
    [owner, viewer, outsider].map((u) => tokenFor(u.username, u.password)),
  );
  [ownerToken, viewerToken, outsiderToken] = tokens as [string, string, string];
  collectionId = (
    await json<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: ownerToken,
        json: { name: `Chunks ${tag}` },
      }),
    )
  ).id;
  await json(
    await call('/moduleknowledge/collection_member', {
      token: ownerToken,
      json: { collection_id: collectionId, username: viewer.username, role: 'viewer' },
    }),
  );
  const sections = Array.from(
    { length: 8 },
    (_, i) =>
      `## Section ${i + 1}\n\nKeeperterm${tag}s${i + 1} ${'A sentence about the rules of this section. '.repeat(12)}`,
  );
  fileId = await upload('handbook.md', `# Handbook ${tag}\n\n${sections.join('\n\n')}`);
  otherFileId = await upload('other.md', `# Other ${tag}\n\nOtherterm${tag} stands alone here.`);
}, 120_000);

afterEach(async () => {
  await control('/reset', {});
});

describe('GET /moduleknowledge/chunks', () => {
  it('lists a file’s chunks in order with where each stands, paged', async () => {
    const all = await chunksOf(fileId, '&size=200');
    expect(all.total).toBeGreaterThan(4);
    expect(all.items.map((c) => c.index)).toEqual(all.items.map((_, i) => i));
    const third = all.items.find((c) => c.text.includes(`Keeperterm${tag}s3 `))!;
    expect(third).toMatchObject({
      enabled: true,
      edited_by: null,
      edited_at: null,
      original_text: null,
      section: expect.stringContaining('Section 3') as string,
    });
    expect(third.embedding_model).toMatch(/@\d+$/);
    const second = await chunksOf(fileId, '&size=2&page=2');
    expect(second).toMatchObject({ file_id: fileId, page: 2, size: 2, total: all.total });
    expect(second.items).toEqual(all.items.slice(2, 4));
  });

  it('answers a reader; 404 for anyone else', async () => {
    expect((await chunksOf(fileId, '', viewerToken)).total).toBeGreaterThan(0);
    const res = await call(`/moduleknowledge/chunks?file_id=${fileId}`, { token: outsiderToken });
    expect(res.status).toBe(404);
  });
});

describe('PUT /moduleknowledge/chunk with text', () => {
  it('is searched as corrected the moment it answers, in every mode', async () => {
    const old = `Keeperterm${tag}s1`;
    const chunk = (await chunksOf(fileId)).items.find((c) => c.text.includes(`${old} `));
    const word = `Corrected${crypto.randomUUID().slice(0, 8)}`;
    const text = `${word} is the word a keeper wrote into this chunk.`;
    const started = Date.now();
    const edited = await json<FileChunk>(await putChunk({ id: chunk!.id, text }));
    expect(edited).toMatchObject({
      id: chunk!.id,
      text,
      edited_by: owner.username,
      original_text: chunk!.text,
      embedding_model: chunk!.embedding_model,
    });
    expect(Date.parse(edited.edited_at!)).toBeGreaterThanOrEqual(started - 1000);
    for (const mode of MODES) expect(await found(text, mode), mode).toContain(chunk!.id);
    // The text as ingested is no longer what is searched.
    expect(await found(old, 'keyword')).not.toContain(chunk!.id);
    const [row] = await queryRows<{ edited_by: string }>(
      sql`select edited_by from chunks where id = ${chunk!.id}`,
    );
    expect(row!.edited_by).toBe(owner.id);

    // A second correction keeps the text as ingested.
    const again = await json<FileChunk>(await putChunk({ id: chunk!.id, text: `${text} Again.` }));
    expect(again.original_text).toBe(chunk!.text);
    expect((await chunksOf(fileId)).items.find((c) => c.id === chunk!.id)).toEqual(again);
  });

  it('is 403 for a reader and 404 for anyone else; nothing changes', async () => {
    const [, chunk] = (await chunksOf(fileId)).items;
    expect((await putChunk({ id: chunk!.id, text: 'a reader’s edit' }, viewerToken)).status).toBe(
      403,
    );
    expect((await putChunk({ id: chunk!.id, text: 'an outsider’s' }, outsiderToken)).status).toBe(
      404,
    );
    expect((await putChunk({ id: chunk!.id, enabled: false }, viewerToken)).status).toBe(403);
    expect((await putChunk({ id: 2 ** 40, enabled: false })).status).toBe(404);
    expect((await chunksOf(fileId)).items[1]).toEqual(chunk);
  });

  it('is 502 with nothing changed when the embedding endpoint fails', async () => {
    const [, , chunk] = (await chunksOf(fileId)).items;
    await control('/fail', { path: '/v1/embeddings', times: 20, status: 500 });
    const res = await putChunk({ id: chunk!.id, text: 'never written' });
    expect(res.status, await res.clone().text()).toBe(502);
    expect((await chunksOf(fileId)).items[2]).toEqual(chunk);
  });

  it('refuses an empty text with a 400', async () => {
    const [chunk] = (await chunksOf(fileId)).items;
    expect((await putChunk({ id: chunk!.id, text: '   ' })).status).toBe(400);
  });
});

describe('switched off', () => {
  it('a chunk is never retrieved, stays listed, and comes back at once', async () => {
    const chunk = (await chunksOf(fileId)).items.find((c) => c.text.includes(`s5 `))!;
    const text = chunk.text;
    for (const mode of MODES) expect(await found(text, mode), mode).toContain(chunk.id);
    const off = await json<FileChunk>(await putChunk({ id: chunk.id, enabled: false }));
    expect(off).toMatchObject({ id: chunk.id, enabled: false, text });
    for (const mode of MODES) expect(await found(text, mode), mode).not.toContain(chunk.id);
    expect((await chunksOf(fileId)).items.find((c) => c.id === chunk.id)!.enabled).toBe(false);
    await json(await putChunk({ id: chunk.id, enabled: true }));
    for (const mode of MODES) expect(await found(text, mode), mode).toContain(chunk.id);
  });

  it('a file is never searched nor chatted with, stays listed, and comes back at once', async () => {
    const text = `Otherterm${tag} stands alone here.`;
    const context = async () =>
      json<{ files: { id: string }[] }>(
        await call(
          `/moduleknowledge/context?text=${encodeURIComponent(text)}&file_id=${otherFileId}`,
          { token: ownerToken },
        ),
      );
    const inResults = async (mode: (typeof MODES)[number]) => {
      const results = await json<QueryResult[]>(
        await call(
          `/moduleknowledge/query?text=${encodeURIComponent(text)}&collection_id=${collectionId}&mode=${mode}&top=50`,
          { token: ownerToken },
        ),
      );
      return results.some((r) => r.file_id === otherFileId);
    };
    for (const mode of MODES) expect(await inResults(mode), mode).toBe(true);
    expect((await context()).files.map((f) => f.id)).toEqual([otherFileId]);

    expect((await putFileEnabled({ id: otherFileId, enabled: false }, viewerToken)).status).toBe(
      403,
    );
    expect((await putFileEnabled({ id: otherFileId, enabled: false }, outsiderToken)).status).toBe(
      404,
    );
    const off = await json<{ id: string; enabled: boolean; version: number }>(
      await putFileEnabled({ id: otherFileId, enabled: false }),
    );
    expect(off).toMatchObject({ id: otherFileId, enabled: false, version: 1 });
    for (const mode of MODES) expect(await inResults(mode), mode).toBe(false);
    expect((await context()).files).toEqual([]);
    const listed = await json<{ id: string; enabled: boolean }[]>(
      await call(`/moduleknowledge/list?collection_id=${collectionId}`, { token: viewerToken }),
    );
    expect(listed.find((f) => f.id === otherFileId)?.enabled).toBe(false);

    await json(await putFileEnabled({ id: otherFileId, enabled: true }));
    for (const mode of MODES) expect(await inResults(mode), mode).toBe(true);
    expect((await context()).files.map((f) => f.id)).toEqual([otherFileId]);
  });
});
