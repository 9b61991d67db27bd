import { beforeAll, describe, expect, it } from 'vitest';
import { hostilePdfs } from '../../dev/fixtures/hostile-pdfs';
import { sql } from 'drizzle-orm';
import { call, createUser, tokenFor } from '../helpers/auth';
import { queryRows } from '../helpers/database';

// New versions of a file without downtime, end to end on the real stack: the old version
// serves (search, list) until the new one is ready, then they swap at once; the history keeps
// every version downloadable and its passages readable; an older version is restored at once;
// a new version that fails leaves the old one serving; deleting the current version makes the
// previous one current again. In a collection of its own, so that other tests' files stay apart.

interface Version {
  id: string;
  version: number;
  status: string;
  current: boolean;
  superseded_at: string | null;
}
interface Listed {
  id: string;
  status: string;
  version: number;
  replaces: { id: string; name: string } | null;
  metadata: { doc_type: string | null; origin: Record<string, string> };
}
interface Hit {
  id: number;
  file_id: string;
}

let aliceToken = '';
let bobToken = '';
let carolToken = '';
let collectionId = '';
let otherCollectionId = '';

// A word of its own, so that only this test's files answer it.
const WORD = `quokka${crypto.randomUUID().slice(0, 8)}`;
const V1 = `# Travel rules\n\nThe ${WORD} allowance is 300 yuan per night in every city.\n`;
// Long enough (several hundred chunks) that its ingestion is still under way when the test looks.
const V2 =
  `# Travel rules, revised\n\n` +
  Array.from(
    { length: 300 },
    (_, i) =>
      `Rule ${i + 1}. The ${WORD} allowance is 450 yuan per night under rule ${i + 1}, revised for the new year, and it applies to travel of every kind approved in advance by the office.`,
  ).join('\n\n') +
  '\n';

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

function form(text: string | Uint8Array, name: string, type = 'text/markdown') {
  const body = new FormData();
  body.append('file', new File([text], name, { type }));
  return body;
}

const upload = (body: FormData, query: string, token = aliceToken) =>
  call(`/moduleknowledge/upload?${query}`, { method: 'POST', body, token });

const status = async (id: string) =>
  json<{ status: string }>(
    await call(`/moduleknowledge/file_status?id=${id}`, { token: aliceToken }),
  );

async function until(id: string, wanted: 'ready' | 'failed', ms = 120_000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const now = (await status(id)).status;
    if (now === wanted) return;
    if (now === 'ready' || now === 'failed') throw new Error(`${id} is ${now}, not ${wanted}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${id} was not ${wanted} in ${ms} ms`);
}

/** The files of this test's collection that a search for its word finds. */
async function filesFound(token = aliceToken): Promise<Set<string>> {
  const hits = await json<Hit[]>(
    await call(
      `/moduleknowledge/query?text=${encodeURIComponent(`${WORD} allowance per night`)}&collection_id=${collectionId}&top=20`,
      { token },
    ),
  );
  return new Set(hits.map((hit) => hit.file_id));
}

const versions = async (id: string, token = aliceToken) =>
  json<Version[]>(await call(`/moduleknowledge/file_versions?id=${id}`, { token }));

const listed = async () =>
  json<Listed[]>(
    await call(`/moduleknowledge/list?collection_id=${collectionId}`, { token: aliceToken }),
  );

const restore = (id: string, token = aliceToken) =>
  call('/moduleknowledge/file_restore', { token, json: { id } });

const deleteFile = (id: string) =>
  call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token: aliceToken });

async function problemCode(res: Response, status: number) {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ code: string }>()).code;
}

let v1 = '';
let v2 = '';

beforeAll(async () => {
  const [alice, bob, carol] = await Promise.all([createUser(), createUser(), createUser()]);
  aliceToken = await tokenFor(alice.username, alice.password);
  bobToken = await tokenFor(bob.username, bob.password);
  carolToken = await tokenFor(carol.username, carol.password);
  const name = () => `Versions ${crypto.randomUUID().slice(0, 6)}`;
  collectionId = (
    await json<{ id: string }>(
      await call('/moduleknowledge/collection', { token: aliceToken, json: { name: name() } }),
    )
  ).id;
  otherCollectionId = (
    await json<{ id: string }>(
      await call('/moduleknowledge/collection', { token: aliceToken, json: { name: name() } }),
    )
  ).id;
  // Bob reads the collection but may not manage its files; Carol cannot read it.
  await json(
    await call('/moduleknowledge/collection_member', {
      token: aliceToken,
      json: { collection_id: collectionId, username: bob.username, role: 'viewer' },
    }),
  );
  const first = form(V1, 'travel.md');
  first.append('collection_id', collectionId);
  v1 = (await json<{ id: string }>(await upload(first, ''))).id;
  // A person's value carries over to the new version; extracted ones are extracted afresh.
  await json(
    await call('/moduleknowledge/file_metadata', {
      method: 'PUT',
      token: aliceToken,
      json: { id: v1, doc_type: 'Travel rule' },
    }),
  );
}, 120_000);

describe('a new version (upload?replaces=)', () => {
  it('is refused to whoever may not manage the file, and checked before anything is stored', async () => {
    expect((await upload(form(V2, 'x.md'), `replaces=${v1}`, bobToken)).status).toBe(403);
    expect(
      await problemCode(await upload(form(V2, 'x.md'), `replaces=${v1}`, carolToken), 404),
    ).toBe('not_found');
    const elsewhere = form(V2, 'x.md');
    elsewhere.append('collection_id', otherCollectionId);
    expect(await problemCode(await upload(elsewhere, `replaces=${v1}`), 400)).toBe(
      'version_other_collection',
    );
    expect(await problemCode(await upload(form(V2, 'x.md'), 'replaces=nope'), 400)).toBe(
      'validation_failed',
    );
    // Nothing of them was stored: the history is v1 alone.
    expect((await versions(v1)).map((v) => v.id)).toEqual([v1]);
  });

  it('leaves the old version serving until it is ready, then they swap', async () => {
    expect(await filesFound()).toEqual(new Set([v1]));
    const answered = await json<{ id: string; status: string; duplicate: boolean }>(
      await upload(form(V2, 'travel-2026.md'), `replaces=${v1}&async=true`),
      202,
    );
    v2 = answered.id;
    expect(answered.duplicate).toBe(false);

    // While v2 is on its way: v1 is found, v2 is not; the list shows v1 and v2 replacing it.
    const during = await filesFound();
    const stillOnItsWay = (await status(v2)).status !== 'ready';
    expect(stillOnItsWay, 'v2 was still being processed when searched').toBe(true);
    expect(during).toEqual(new Set([v1]));
    const rows = await listed();
    expect(rows.find((row) => row.id === v1)?.status).toBe('ready');
    expect(rows.find((row) => row.id === v2)?.replaces).toEqual({ id: v1, name: 'travel.md' });
    // A second new version while one is on its way: refused.
    expect(await problemCode(await upload(form('other text', 'y.md'), `replaces=${v1}`), 409)).toBe(
      'version_on_its_way',
    );

    await until(v2, 'ready');
    expect(await filesFound()).toEqual(new Set([v2]));
    const after = await listed();
    expect(after.map((row) => row.id)).toEqual([v2]);
    expect(after[0]).toMatchObject({ version: 2, replaces: null });
    expect(after[0]!.metadata.doc_type).toBe('Travel rule');
    expect(after[0]!.metadata.origin.doc_type).toBe('person');
    // The collection counts its documents as the list shows them: v1 is history, not a file.
    const mine = await json<{ id: string; files: number }[]>(
      await call('/moduleknowledge/collections', { token: aliceToken }),
    );
    expect(mine.find((c) => c.id === collectionId)?.files).toBe(1);
  }, 180_000);

  it('lists the history newest first, from any version, for readers too', async () => {
    const history = await versions(v1, bobToken);
    expect(history.map(({ id, version, current }) => ({ id, version, current }))).toEqual([
      { id: v2, version: 2, current: true },
      { id: v1, version: 1, current: false },
    ]);
    expect(history[0]!.superseded_at).toBeNull();
    expect(Date.parse(history[1]!.superseded_at!)).not.toBeNaN();
    expect(await versions(v2)).toEqual(await versions(v1));
    expect(
      await problemCode(
        await call(`/moduleknowledge/file_versions?id=${v1}`, { token: carolToken }),
        404,
      ),
    ).toBe('not_found');
  });

  it('keeps the old version downloadable and its passages readable', async () => {
    const download = await call(`/moduleknowledge/download?id=${v1}`, { token: bobToken });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(V1);
    // A chunk of v1, as a conversation from before the swap cites it.
    const [chunk] = await queryRows<{ id: number }>(
      sql`select id::int as id from chunks where file_id = ${v1} limit 1`,
    );
    const passage = await json<{ file_id: string; text: string }>(
      await call(`/moduleknowledge/chunk?id=${chunk!.id}`, { token: bobToken }),
    );
    expect(passage.file_id).toBe(v1);
    expect(passage.text).toContain(WORD);
  });

  it('answers the same bytes as the current version as a duplicate, an older version’s with 409', async () => {
    const same = await json<{ id: string; duplicate: boolean }>(
      await upload(form(V2, 'again.md'), `replaces=${v2}`),
    );
    expect(same).toMatchObject({ id: v2, duplicate: true });
    expect(await problemCode(await upload(form(V1, 'old.md'), `replaces=${v2}`), 409)).toBe(
      'version_same_as_older',
    );
    // Uploaded plainly (no replaces), v1's bytes are not "already there" as a file no one sees.
    const plain = form(V1, 'old-again.md');
    plain.append('collection_id', collectionId);
    expect(await problemCode(await upload(plain, ''), 409)).toBe('upload_same_as_older_version');
    // v1 is no longer the current version: no new version of it.
    expect(await problemCode(await upload(form('new text', 'z.md'), `replaces=${v1}`), 409)).toBe(
      'version_superseded',
    );
  });
});

describe('restoring a version', () => {
  it('makes v1 current again at once, for whoever may manage it', async () => {
    expect((await restore(v1, bobToken)).status).toBe(403);
    const restored = await json<Listed>(await restore(v1));
    expect(restored).toMatchObject({ id: v1, version: 1 });
    expect(await filesFound()).toEqual(new Set([v1]));
    expect((await versions(v2)).map(({ id, current }) => ({ id, current }))).toEqual([
      { id: v2, current: false },
      { id: v1, current: true },
    ]);
    expect((await listed()).map((row) => row.id)).toEqual([v1]);
  });
});

describe('a new version that fails', () => {
  it('leaves the current version serving; the next attempt or a delete removes it', async () => {
    const [encrypted, another] = (await hostilePdfs({ oversize: false, bombMiB: 1 })).filter(
      (pdf) => pdf.category === 'encrypted',
    );
    const failedVersion = async (bytes: Uint8Array) => {
      const id = (
        await json<{ id: string }>(
          await upload(
            form(bytes, 'travel-2027.pdf', 'application/pdf'),
            `replaces=${v1}&async=true`,
          ),
          202,
        )
      ).id;
      await until(id, 'failed');
      return id;
    };
    const v3 = await failedVersion(encrypted!.bytes);
    expect(await filesFound()).toEqual(new Set([v1]));
    const history = await versions(v1);
    expect(history.map(({ id, status, current }) => ({ id, status, current }))).toEqual([
      { id: v3, status: 'failed', current: false },
      { id: v2, status: 'ready', current: false },
      { id: v1, status: 'ready', current: true },
    ]);
    expect(await problemCode(await restore(v3), 409)).toBe('version_not_ready');

    // The next attempt takes the failed one's place; deleting that one leaves v1 as it was.
    const v4 = await failedVersion(another!.bytes);
    expect((await versions(v1)).map(({ id, version }) => ({ id, version }))).toEqual([
      { id: v4, version: 4 },
      { id: v2, version: 2 },
      { id: v1, version: 1 },
    ]);
    expect(await filesFound()).toEqual(new Set([v1]));
    expect((await deleteFile(v4)).status).toBe(204);
    expect(await filesFound()).toEqual(new Set([v1]));
    expect((await versions(v1)).map(({ id, current }) => ({ id, current }))).toEqual([
      { id: v2, current: false },
      { id: v1, current: true },
    ]);
  }, 120_000);
});

describe('deleting the current version', () => {
  it('makes the version it replaced current again', async () => {
    expect((await deleteFile(v1)).status).toBe(204);
    expect(await filesFound()).toEqual(new Set([v2]));
    expect((await versions(v2)).map(({ id, current }) => ({ id, current }))).toEqual([
      { id: v2, current: true },
    ]);
    expect((await listed()).map((row) => row.id)).toEqual([v2]);
  });
});

describe('two new versions at once', () => {
  it('keeps at most one on its way', async () => {
    const answers = await Promise.all(
      ['first', 'second', 'third'].map((which) =>
        upload(
          form(`# Travel rules\n\n${which} ${WORD} draft.\n`, `${which}.md`),
          `replaces=${v2}&async=true`,
        ),
      ),
    );
    const statuses = answers.map((res) => res.status);
    for (const status of statuses) expect([202, 409]).toContain(status);
    expect(statuses.filter((status) => status === 202).length).toBeLessThanOrEqual(1);
    const onItsWay = (await versions(v2)).filter((v) => !v.current && v.status !== 'ready');
    expect(onItsWay.length).toBe(statuses.filter((status) => status === 202).length);
  });
});
