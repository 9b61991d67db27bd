import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { call, createUser, tokenFor, type TestUser } from '../helpers/auth';

// A collection's saved retrieval questions: saved by its editors, listed and run by its readers,
// scored against what GetQuery itself answers for the same questions (computed here, apart from
// the service's scoring), and a deleted file's case missing.

interface Collection {
  id: string;
}
interface SavedTest {
  id: number;
  collection_id: string;
  question: string;
  file_id: string;
  file_name: string | null;
  page: number | null;
  section: string | null;
  created_by: string;
  created_at: string;
}
interface Run {
  collection_id: string;
  mode: string;
  top: number;
  cases: {
    id: number;
    question: string;
    file_id: string;
    page: number | null;
    rank: number | null;
    similarity: number | null;
  }[];
  hit_rate: number;
  mrr: number;
}
interface Result {
  file_id: string;
  page: number;
  similarity: number;
}

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

async function upload(token: string, pages: string[], name: string, collection: string) {
  const form = new FormData();
  form.append('collection_id', collection);
  form.append('file', new File([makeTextPdf(pages)], name, { type: 'application/pdf' }));
  return json<{ id: string; pages: number; status: string }>(
    await call('/moduleknowledge/upload', { method: 'POST', body: form, token }),
  );
}

const save = (token: string, body: Record<string, unknown>) =>
  call('/moduleknowledge/retrieval_test', { token, json: body });
const list = (token: string, collection: string) =>
  call(`/moduleknowledge/retrieval_tests?collection_id=${collection}`, { token });
const run = (token: string, body: Record<string, unknown>) =>
  call('/moduleknowledge/retrieval_test_run', { token, json: body });

const WORD = `Tessellate${crypto.randomUUID().slice(0, 6)}`;
let alice: TestUser;
let aliceToken = '';
let viewerToken = '';
let strangerToken = '';
let kb: Collection;
let other: Collection;
let leave: { id: string; pages: number };
let travel: { id: string };
let parking: { id: string };
let elsewhere: { id: string };

beforeAll(async () => {
  alice = await createUser();
  const viewer = await createUser();
  const stranger = await createUser();
  [aliceToken, viewerToken, strangerToken] = await Promise.all([
    tokenFor(alice.username, alice.password),
    tokenFor(viewer.username, viewer.password),
    tokenFor(stranger.username, stranger.password),
  ]);
  kb = await json<Collection>(
    await call('/moduleknowledge/collection', { token: aliceToken, json: { name: 'Policies' } }),
  );
  other = await json<Collection>(
    await call('/moduleknowledge/collection', { token: aliceToken, json: { name: 'Other' } }),
  );
  await json(
    await call('/moduleknowledge/collection_member', {
      token: aliceToken,
      json: { collection_id: kb.id, username: viewer.username, role: 'viewer' },
    }),
  );
  leave = await upload(
    aliceToken,
    [
      `${WORD} staff handbook. Contents and general provisions of employment.`,
      `${WORD} annual leave: after ten years of service an employee has 25 working days of annual leave.`,
    ],
    'leave.pdf',
    kb.id,
  );
  travel = await upload(
    aliceToken,
    [`${WORD} travel: hotel costs outside the province are reimbursed up to 500 yuan per night.`],
    'travel.pdf',
    kb.id,
  );
  parking = await upload(
    aliceToken,
    [`${WORD} parking permits are issued by the facilities office for one calendar year.`],
    'parking.pdf',
    kb.id,
  );
  elsewhere = await upload(aliceToken, [`${WORD} unrelated minutes.`], 'minutes.pdf', other.id);
}, 120_000);

describe('saving a retrieval question', () => {
  it('keeps the question with its file (and page), listed for the collection’s readers', async () => {
    const saved = await json<SavedTest>(
      await save(aliceToken, {
        collection_id: kb.id,
        question: `${WORD} how many days of annual leave after ten years of service?`,
        file_id: leave.id,
        page: 2,
      }),
    );
    expect(saved).toMatchObject({
      collection_id: kb.id,
      file_id: leave.id,
      file_name: 'leave.pdf',
      page: 2,
      section: null,
      created_by: alice.username,
    });
    const listed = await json<SavedTest[]>(await list(viewerToken, kb.id));
    expect(listed).toEqual([saved]);
  });

  it('names the expected section of a document without pages by its headings', async () => {
    const sectioned = await json<Collection>(
      await call('/moduleknowledge/collection', { token: aliceToken, json: { name: '办法' } }),
    );
    const form = new FormData();
    form.append('collection_id', sectioned.id);
    const text = `# 休假办法\n\n## 第一章 总则\n\n${WORD} 为规范休假，制定本办法。\n\n## 第二章 年休假\n\n${WORD} 工作满十年的，年休假十五天。\n`;
    form.append('file', new File([text], '休假办法.md', { type: 'text/markdown' }));
    const file = await json<{ id: string; pages: number }>(
      await call('/moduleknowledge/upload', { method: 'POST', body: form, token: aliceToken }),
    );
    // The section as a search names it: what the keeper clicked "save as test" on.
    const params = new URLSearchParams({
      text: `${WORD} 年休假十五天`,
      collection_id: sectioned.id,
    });
    const [best] = await json<(Result & { section: string | null })[]>(
      await call(`/moduleknowledge/query?${params}`, { token: aliceToken }),
    );
    expect(best!.section).toContain('第二章 年休假');
    const saved = await json<SavedTest>(
      await save(aliceToken, {
        collection_id: sectioned.id,
        question: '年休假几天？',
        file_id: file.id,
        page: best!.page,
      }),
    );
    expect(saved).toMatchObject({ page: best!.page, section: best!.section });
    expect(await json<SavedTest[]>(await list(aliceToken, sectioned.id))).toEqual([saved]);
  });

  it('refuses a viewer (403), a file of another collection (404) and a page past the file’s end', async () => {
    const base = { collection_id: kb.id, question: 'parking permits?', file_id: parking.id };
    expect((await save(viewerToken, base)).status).toBe(403);
    const foreign = await save(aliceToken, { ...base, file_id: elsewhere.id });
    expect(foreign.status).toBe(404);
    const past = await save(aliceToken, { ...base, file_id: leave.id, page: leave.pages + 1 });
    expect(past.status).toBe(400);
    expect(await past.json()).toMatchObject({ errors: [{ field: 'page' }] });
    expect((await save(aliceToken, { ...base, page: 0 })).status).toBe(400);
    // Nothing was written by the refused requests.
    expect(await json<SavedTest[]>(await list(aliceToken, kb.id))).toHaveLength(1);
  });

  it('answers 404 to someone who reads nothing of the collection, for every route', async () => {
    const base = { collection_id: kb.id, question: 'parking?', file_id: parking.id };
    expect((await save(strangerToken, base)).status).toBe(404);
    expect((await list(strangerToken, kb.id)).status).toBe(404);
    expect((await run(strangerToken, { collection_id: kb.id })).status).toBe(404);
    const [mine] = await json<SavedTest[]>(await list(aliceToken, kb.id));
    const gone = await call(`/moduleknowledge/retrieval_test?id=${mine!.id}`, {
      method: 'DELETE',
      token: strangerToken,
    });
    expect(gone.status).toBe(404);
  });
});

describe('running the saved set', () => {
  it('ranks each expected file (and page) as GetQuery does, with hit rate and MRR', async () => {
    await json(
      await save(aliceToken, {
        collection_id: kb.id,
        question: `${WORD} hotel costs outside the province per night`,
        file_id: travel.id,
      }),
    );
    // Expects the handbook's first page for a question about parking: ranked low or missed.
    await json(
      await save(aliceToken, {
        collection_id: kb.id,
        question: `${WORD} parking permits facilities office`,
        file_id: leave.id,
        page: 1,
      }),
    );
    const saved = await json<SavedTest[]>(await list(aliceToken, kb.id));
    expect(saved).toHaveLength(3);

    for (const [mode, top] of [
      ['hybrid', 10],
      ['vector', 1],
      ['keyword', 2],
    ] as const) {
      const result = await json<Run>(await run(viewerToken, { collection_id: kb.id, mode, top }));
      // The same questions through GetQuery, scored here.
      const expected = await Promise.all(
        saved.map(async (test) => {
          const params = new URLSearchParams({
            text: test.question,
            top: String(top),
            mode,
            collection_id: kb.id,
          });
          const found = await json<Result[]>(
            await call(`/moduleknowledge/query?${params}`, { token: viewerToken }),
          );
          const at = found.findIndex(
            (r) => r.file_id === test.file_id && (test.page === null || r.page === test.page),
          );
          return at < 0
            ? { id: test.id, rank: null, similarity: null }
            : { id: test.id, rank: at + 1, similarity: found[at]!.similarity };
        }),
      );
      expect(result).toMatchObject({ collection_id: kb.id, mode, top });
      expect(result.cases.map(({ id, rank, similarity }) => ({ id, rank, similarity }))).toEqual(
        expected,
      );
      const hits = expected.filter((c) => c.rank !== null);
      expect(result.hit_rate).toBeCloseTo(hits.length / expected.length, 10);
      const mrr = hits.reduce((sum, c) => sum + 1 / c.rank!, 0) / expected.length;
      expect(result.mrr).toBeCloseTo(mrr, 10);
    }
    // The first two are found at all in hybrid mode's top 10 (the set is not trivially empty).
    const hybrid = await json<Run>(await run(aliceToken, { collection_id: kb.id }));
    expect(hybrid.cases[0]!.rank).not.toBeNull();
    expect(hybrid.cases[1]!.rank).not.toBeNull();
    expect(hybrid.hit_rate).toBeGreaterThan(0);
  });

  it('counts a deleted file’s case as missed and lists it with file_name null', async () => {
    const deleted = await call(`/moduleknowledge/file?id=${travel.id}`, {
      method: 'DELETE',
      token: aliceToken,
    });
    expect(deleted.status).toBe(204);
    const listed = await json<SavedTest[]>(await list(viewerToken, kb.id));
    expect(listed.find((t) => t.file_id === travel.id)).toMatchObject({ file_name: null });
    const result = await json<Run>(
      await run(viewerToken, { collection_id: kb.id, mode: 'hybrid' }),
    );
    expect(result.cases.find((c) => c.file_id === travel.id)).toMatchObject({
      rank: null,
      similarity: null,
    });
  });

  it('answers no cases with hit rate and MRR 0', async () => {
    const result = await json<Run>(await run(aliceToken, { collection_id: other.id }));
    expect(result).toEqual({
      collection_id: other.id,
      mode: 'hybrid',
      top: 10,
      cases: [],
      hit_rate: 0,
      mrr: 0,
    });
  });
});

describe('deleting a saved question', () => {
  it('is for editors (a viewer gets 403), then it is gone', async () => {
    const [first] = await json<SavedTest[]>(await list(aliceToken, kb.id));
    const path = `/moduleknowledge/retrieval_test?id=${first!.id}`;
    expect((await call(path, { method: 'DELETE', token: viewerToken })).status).toBe(403);
    expect((await call(path, { method: 'DELETE', token: aliceToken })).status).toBe(204);
    const left = await json<SavedTest[]>(await list(aliceToken, kb.id));
    expect(left.map((t) => t.id)).not.toContain(first!.id);
    expect((await call(path, { method: 'DELETE', token: aliceToken })).status).toBe(404);
  });
});
