import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  POLICY_DOCUMENTS,
  QINGHE_EDUCATION_DOCX,
  QINGHE_JOINT_NOTICE,
  QINGHE_NOTICE_2024,
  QINGHE_NOTICE_2025,
  RIVERTON_REMOTE_WORKING,
  type PolicyDocument,
} from '../../dev/fixtures/policy-documents';
import { call, createUser, tokenFor, type TestUser } from '../helpers/auth';
import { queryRows } from '../helpers/database';

// What documents say of themselves and how they relate, end to end: the policy fixtures
// uploaded into a collection of their own (so that other tests' uploads of the same bytes stay
// apart), read back from the list and file_status; a person's correction, kept through a
// re-ingest; relations stated and removed by API, and who may do either.

interface Relation {
  id: number;
  relation: string;
  file_id: string | null;
  file_name: string | null;
  doc_number: string | null;
  title: string | null;
  origin: 'extracted' | 'person';
}

interface FileAnswer {
  id: string;
  name: string;
  status: string;
  metadata: PolicyDocument['expected'] & { origin: Record<string, string> };
  validity?: { status: string; relations: Relation[] };
}

let alice: TestUser;
let aliceToken = '';
let bobToken = '';
let collectionId = '';
const ids = new Map<string, string>();

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

const fileStatus = async (id: string, token = aliceToken) =>
  json<FileAnswer>(await call(`/moduleknowledge/file_status?id=${id}`, { token }));

async function untilReady(id: string, ms = 90_000): Promise<FileAnswer> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const answer = await fileStatus(id);
    if (answer.status === 'ready') return answer;
    if (answer.status === 'failed') throw new Error(`${id} failed: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`file ${id} was not ready in ${ms} ms`);
}

async function upload(doc: PolicyDocument): Promise<string> {
  const form = new FormData();
  form.append('collection_id', collectionId);
  form.append('file', new File([await doc.bytes()], doc.fileName, { type: doc.contentType }));
  const res = await call('/moduleknowledge/upload?async=true', {
    method: 'POST',
    body: form,
    token: aliceToken,
  });
  expect([200, 202], await res.clone().text()).toContain(res.status);
  return (await res.json<{ data: { id: string } }>()).data.id;
}

const listed = async () =>
  json<FileAnswer[]>(
    await call(`/moduleknowledge/list?collection_id=${collectionId}`, { token: aliceToken }),
  );

const idOf = (doc: PolicyDocument) => ids.get(doc.key)!;

const fieldsOf = ({ origin: _origin, ...fields }: FileAnswer['metadata']) => fields;

beforeAll(async () => {
  alice = await createUser();
  aliceToken = await tokenFor(alice.username, alice.password);
  const bob = await createUser();
  bobToken = await tokenFor(bob.username, bob.password);
  const collection = await json<{ id: string }>(
    await call('/moduleknowledge/collection', {
      token: aliceToken,
      json: { name: `Policies ${crypto.randomUUID().slice(0, 6)}` },
    }),
  );
  collectionId = collection.id;
  // Bob reads the collection (a viewer) but may not manage its files.
  await json(
    await call('/moduleknowledge/collection_member', {
      token: aliceToken,
      json: { collection_id: collectionId, username: bob.username, role: 'viewer' },
    }),
  );
  for (const doc of POLICY_DOCUMENTS) ids.set(doc.key, await upload(doc));
  for (const doc of POLICY_DOCUMENTS) await untilReady(idOf(doc));
}, 240_000);

describe('what each document says of itself', () => {
  it('is in the list and in file_status, every field, each marked extracted', async () => {
    const files = await listed();
    for (const doc of POLICY_DOCUMENTS) {
      const inList = files.find((file) => file.id === idOf(doc));
      expect(inList, doc.key).toBeDefined();
      expect(fieldsOf(inList!.metadata), doc.key).toEqual(doc.expected);
      const set = Object.entries(doc.expected).filter(
        ([, value]) => value !== null && !(Array.isArray(value) && value.length === 0),
      );
      expect(inList!.metadata.origin, doc.key).toEqual(
        Object.fromEntries(set.map(([field]) => [field, 'extracted'])),
      );
      const status = await fileStatus(idOf(doc));
      expect(status.metadata, doc.key).toEqual(inList!.metadata);
      expect(status.validity, doc.key).toEqual(inList!.validity);
    }
    // The list with the files' text is read in a session: the same answers there.
    const withContent = await json<FileAnswer[]>(
      await call(`/moduleknowledge/list?collection_id=${collectionId}&with_content=true`, {
        token: aliceToken,
      }),
    );
    for (const file of files) {
      const same = withContent.find((other) => other.id === file.id)!;
      expect(same.metadata).toEqual(file.metadata);
      expect(same.validity).toEqual(file.validity);
    }
  });
});

describe('whether it holds', () => {
  it('the later notice repeals the first by its number; the joint notice implements it', async () => {
    const first = await fileStatus(idOf(QINGHE_NOTICE_2024));
    expect(first.validity!.status).toBe('repealed');
    expect(first.validity!.relations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          relation: 'repealed_by',
          file_id: idOf(QINGHE_NOTICE_2025),
          file_name: QINGHE_NOTICE_2025.fileName,
          doc_number: '青政办发〔2025〕9号',
          origin: 'extracted',
        }),
        expect.objectContaining({
          relation: 'implemented_by',
          file_id: idOf(QINGHE_JOINT_NOTICE),
        }),
      ]),
    );

    const later = await fileStatus(idOf(QINGHE_NOTICE_2025));
    expect(later.validity).toEqual({
      status: 'in_force',
      relations: [
        expect.objectContaining({
          relation: 'repeals',
          file_id: idOf(QINGHE_NOTICE_2024),
          file_name: QINGHE_NOTICE_2024.fileName,
          doc_number: '青政办发〔2024〕17号',
          title: '青禾市创业担保贷款实施办法',
          origin: 'extracted',
        }),
      ],
    });

    // A document only named (not uploaded) stays a name.
    const docx = await fileStatus(idOf(QINGHE_EDUCATION_DOCX));
    expect(docx.validity!.relations).toEqual([
      expect.objectContaining({
        relation: 'repeals',
        file_id: null,
        doc_number: '青教发〔2021〕8号',
      }),
    ]);
  });

  it('a chat limited to the repealed notice is told so, and where each passage stands', async () => {
    const first = idOf(QINGHE_NOTICE_2024);
    const url = `/moduleknowledge/context?text=${encodeURIComponent('贷款额度')}&file_id=${first}&max_chars=100000&top=5`;
    const context = await json<{
      files: { id: string; validity?: { status: string; relations: Relation[] } }[];
      pages: { text: string; passages?: { chunk_id: number; start: number; end: number }[] }[];
    }>(await call(url, { token: aliceToken }));
    expect(context.files[0]!.validity).toEqual({
      status: 'repealed',
      relations: expect.arrayContaining([
        expect.objectContaining({ relation: 'repealed_by', file_id: idOf(QINGHE_NOTICE_2025) }),
      ]),
    });
    // Each passage is a chunk of the file, and stands in the page's text where the chunk says.
    const passages = context.pages.flatMap((page) =>
      (page.passages ?? []).map((p) => ({ ...p, text: page.text.slice(p.start, p.end) })),
    );
    expect(passages.length).toBeGreaterThan(0);
    for (const passage of passages) {
      const chunk = await json<{ file_id: string; text: string }>(
        await call(`/moduleknowledge/chunk?id=${passage.chunk_id}`, { token: aliceToken }),
      );
      expect(chunk.file_id).toBe(first);
      expect(passage.text.replace(/\s+/g, '')).toBe(chunk.text.replace(/\s+/g, ''));
    }
  });

  it('a relation stated by API changes validity, and removing it changes it back', async () => {
    const docx = idOf(QINGHE_EDUCATION_DOCX);
    const english = idOf(RIVERTON_REMOTE_WORKING);
    const body = { file_id: english, relation: 'amends', target_file_id: docx };

    const refused = await call('/moduleknowledge/file_relation', { token: bobToken, json: body });
    expect(refused.status).toBe(403);

    const after = await json<FileAnswer>(
      await call('/moduleknowledge/file_relation', { token: aliceToken, json: body }),
    );
    const stated = after.validity!.relations.find((r) => r.relation === 'amends')!;
    expect(stated).toMatchObject({ file_id: docx, origin: 'person' });
    const amended = await fileStatus(docx);
    expect(amended.validity!.status).toBe('amended');
    expect(amended.validity!.relations).toContainEqual(
      expect.objectContaining({ relation: 'amended_by', file_id: english, origin: 'person' }),
    );

    const notHis = await call(`/moduleknowledge/file_relation?id=${stated.id}`, {
      method: 'DELETE',
      token: bobToken,
    });
    expect(notHis.status).toBe(403);
    const removed = await call(`/moduleknowledge/file_relation?id=${stated.id}`, {
      method: 'DELETE',
      token: aliceToken,
    });
    expect(removed.status, await removed.clone().text()).toBe(204);
    expect((await fileStatus(docx)).validity!.status).toBe('in_force');
    const gone = await call(`/moduleknowledge/file_relation?id=${stated.id}`, {
      method: 'DELETE',
      token: aliceToken,
    });
    expect(gone.status).toBe(404);
  });

  it('a file the caller cannot read is no target', async () => {
    const stranger = await createUser();
    const strangerToken = await tokenFor(stranger.username, stranger.password);
    const res = await call('/moduleknowledge/file_relation', {
      token: strangerToken,
      json: { file_id: idOf(QINGHE_NOTICE_2025), relation: 'repeals', doc_number: 'X〔2020〕1号' },
    });
    expect(res.status).toBe(404);
  });
});

describe('a person’s correction', () => {
  it('is marked person, survives a re-ingest, and only who may manage the file makes one', async () => {
    const id = idOf(QINGHE_NOTICE_2025);
    const refused = await call('/moduleknowledge/file_metadata', {
      method: 'PUT',
      token: bobToken,
      json: { id, issued_on: '2025-06-11' },
    });
    expect(refused.status).toBe(403);

    const corrected = await json<FileAnswer>(
      await call('/moduleknowledge/file_metadata', {
        method: 'PUT',
        token: aliceToken,
        json: { id, issued_on: '2025-06-11', doc_type: null, issuers: ['青禾市人民政府'] },
      }),
    );
    expect(corrected.metadata).toMatchObject({
      issued_on: '2025-06-11',
      doc_type: null,
      issuers: ['青禾市人民政府'],
      title: QINGHE_NOTICE_2025.expected.title,
    });
    expect(corrected.metadata.origin).toMatchObject({
      issued_on: 'person',
      doc_type: 'person',
      issuers: 'person',
      title: 'extracted',
    });

    // Ingested again from the start (a failed file retried reads it anew).
    await queryRows(sql`update files set status = 'failed' where id = ${id}::uuid`);
    await json(await call('/moduleknowledge/file_retry', { token: aliceToken, json: { id } }));
    const again = await untilReady(id);
    expect(again.metadata).toEqual(corrected.metadata);
    // The relation found in the text is found again, once.
    expect(
      again.validity!.relations.filter((r) => r.relation === 'repeals' && r.origin === 'extracted'),
    ).toHaveLength(1);
  });
});
