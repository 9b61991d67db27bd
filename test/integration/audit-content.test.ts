// The audit trail of content (docs/audit.md): collections and their members, files uploaded,
// related to other documents, moved, switched, deleted, the official answers' threshold and the
// gap report's export are recorded by the module that does
// them, with who (and through which key), from where, on what; a change that finds nothing
// records nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import {
  call,
  createUser,
  deleteUser,
  seededAdminToken,
  tokenFor,
  uniqueIp,
  type TestUser,
} from '../helpers/auth';

interface Rec {
  actor_id: string | null;
  key_id: string | null;
  address: string | null;
  action: string;
  object_type: string | null;
  object_id: string | null;
  object_label: string | null;
  outcome: string;
  detail: Record<string, unknown>;
}

let admin = '';
let alice: TestUser;
let bob: TestUser;
let aliceToken = '';
let aliceKey = '';
let keyId = '';
const IP = uniqueIp();

async function data<T>(res: Response): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: T }>()).data;
}

/** The records about one object, oldest first. */
async function about(objectId: string): Promise<Rec[]> {
  const query = new URLSearchParams({ object: objectId, size: '200' });
  const { items } = await data<{ items: Rec[] }>(
    await call(`/moduleauth/audit?${query}`, { token: admin }),
  );
  return items.reverse();
}

const newCollection = async (token: string, name: string) =>
  data<{ id: string }>(
    await call('/moduleknowledge/collection', { token, ip: IP, json: { name, description: '' } }),
  );

beforeAll(async () => {
  admin = await seededAdminToken();
  alice = await createUser();
  bob = await createUser();
  aliceToken = await tokenFor(alice.username, alice.password);
  const key = await data<{ id: string; key: string }>(
    await call('/moduleauth/api_key', { token: aliceToken, json: { name: 'audit script' } }),
  );
  aliceKey = key.key;
  keyId = key.id;
});

afterAll(async () => {
  await deleteUser(alice.id);
  await deleteUser(bob.id);
});

describe('collections', () => {
  it('records create, update, members and delete, through a key and from an address', async () => {
    const name = `Audit ${crypto.randomUUID().slice(0, 6)}`;
    const { id } = await newCollection(aliceKey, name);
    const put = (json: unknown, method = 'PUT') =>
      call('/moduleknowledge/collection', { method, token: aliceToken, ip: IP, json });
    expect((await put({ id, name: `${name} 2` })).status).toBe(200);
    const member = (method: string, json: unknown) =>
      call('/moduleknowledge/collection_member', { method, token: aliceToken, ip: IP, json });
    expect(
      (await member('POST', { collection_id: id, username: bob.username, role: 'viewer' })).status,
    ).toBe(200);
    // Already a member: 409, nothing recorded.
    expect(
      (await member('POST', { collection_id: id, username: bob.username, role: 'viewer' })).status,
    ).toBe(409);
    expect(
      (await member('PUT', { collection_id: id, user_id: bob.id, role: 'editor' })).status,
    ).toBe(200);
    expect(
      (
        await call(`/moduleknowledge/collection_member?collection_id=${id}&user_id=${bob.id}`, {
          method: 'DELETE',
          token: aliceToken,
        })
      ).status,
    ).toBe(204);
    expect(
      (await call(`/moduleknowledge/collection?id=${id}`, { method: 'DELETE', token: aliceToken }))
        .status,
    ).toBe(204);

    const records = await about(id);
    expect(records.map((r) => [r.action, r.object_label])).toEqual([
      ['knowledge.collection_create', name],
      ['knowledge.collection_update', `${name} 2`],
      ['knowledge.member_add', `${name} 2`],
      ['knowledge.member_role', `${name} 2`],
      ['knowledge.member_remove', `${name} 2`],
      ['knowledge.collection_delete', `${name} 2`],
    ]);
    expect(records[0]).toMatchObject({
      actor_id: alice.id,
      key_id: keyId,
      address: IP.toLowerCase(),
      outcome: 'ok',
    });
    expect(records[1]).toMatchObject({ key_id: null, detail: { changed: ['name'] } });
    expect(records[2]!.detail).toMatchObject({ member_id: bob.id, role: 'viewer' });
    expect(records[3]!.detail).toMatchObject({ member_id: bob.id, role: 'editor' });
  });
});

describe('files', () => {
  it('records upload, move, switching off and delete, with the file’s name', async () => {
    const from = await newCollection(aliceToken, `From ${crypto.randomUUID().slice(0, 6)}`);
    const to = await newCollection(aliceToken, `To ${crypto.randomUUID().slice(0, 6)}`);
    const form = new FormData();
    const name = `审计 ${crypto.randomUUID().slice(0, 6)}.pdf`;
    form.append('file', new File([makeTextPdf(['A page about the audit trail.'])], name));
    form.append('collection_id', from.id);
    const file = await data<{ id: string }>(
      await call('/moduleknowledge/upload', { token: aliceToken, ip: IP, body: form }),
    );
    // A relation stated and removed (it changes what readers are told of another document: a
    // number no other test's document has, so no search elsewhere sees a document repealed).
    const docNumber = `审计〔2099〕${Math.floor(Math.random() * 1e6)}号`;
    const related = await data<{ validity: { relations: { id: number; relation: string }[] } }>(
      await call('/moduleknowledge/file_relation', {
        token: aliceToken,
        json: { file_id: file.id, relation: 'repeals', doc_number: docNumber },
      }),
    );
    const relation = related.validity.relations.find((r) => r.relation === 'repeals')!;
    const removed = await call(`/moduleknowledge/file_relation?id=${relation.id}`, {
      method: 'DELETE',
      token: aliceToken,
    });
    expect(removed.status).toBe(204);
    await data(
      await call('/moduleknowledge/file_move', {
        token: aliceToken,
        json: { id: file.id, collection_id: to.id },
      }),
    );
    await data(
      await call('/moduleknowledge/file_enabled', {
        method: 'PUT',
        token: aliceToken,
        json: { id: file.id, enabled: false },
      }),
    );
    const gone = (
      await call(`/moduleknowledge/file?id=${file.id}`, {
        method: 'DELETE',
        token: aliceToken,
      })
    ).status;
    expect(gone).toBe(204);
    expect(
      (await call(`/moduleknowledge/file?id=${file.id}`, { method: 'DELETE', token: aliceToken }))
        .status,
    ).toBe(404);

    const records = await about(file.id);
    expect(records.map((r) => [r.action, r.object_type, r.object_label])).toEqual([
      ['knowledge.upload', 'file', name],
      ['knowledge.relation_add', 'file', name],
      ['knowledge.relation_remove', 'file', name],
      ['knowledge.move', 'file', name],
      ['knowledge.file_switch', 'file', name],
      ['knowledge.delete', 'file', name],
    ]);
    expect(records[0]!.detail).toMatchObject({ collection_id: from.id });
    expect(records[1]!.detail).toMatchObject({
      relation: 'repeals',
      doc_number: docNumber,
    });
    expect(records[2]!.detail).toMatchObject({ relation_id: relation.id, origin: 'person' });
    expect(records[3]!.detail).toMatchObject({ from: from.id, to: to.id });
    expect(records[4]!.detail).toEqual({ enabled: false });
    expect(records.every((r) => r.actor_id === alice.id)).toBe(true);
    for (const c of [from, to]) {
      await call(`/moduleknowledge/collection?id=${c.id}`, { method: 'DELETE', token: aliceToken });
    }
  });
});

describe('passages', () => {
  it('records a correction and a switch with the file’s name, the page and section as data', async () => {
    const kb = await newCollection(aliceToken, `Passages ${crypto.randomUUID().slice(0, 6)}`);
    const upload = async (file: File) => {
      const form = new FormData();
      form.append('file', file);
      form.append('collection_id', kb.id);
      return data<{ id: string }>(
        await call('/moduleknowledge/upload', { token: aliceToken, ip: IP, body: form }),
      );
    };
    const pdfName = `审计片段 ${crypto.randomUUID().slice(0, 6)}.pdf`;
    const pdf = await upload(
      new File([makeTextPdf(['第一页的内容。', '第二页：差旅费按实际报销。'])], pdfName),
    );
    const mdName = `办法 ${crypto.randomUUID().slice(0, 6)}.md`;
    const md = await upload(
      new File(['# 办法\n\n## 第一章 总则\n\n为规范管理，制定本办法。\n'], mdName, {
        type: 'text/markdown',
      }),
    );
    const chunkOn = async (fileId: string, page: number) => {
      const { items } = await data<{ items: { id: number; page: number }[] }>(
        await call(`/moduleknowledge/chunks?file_id=${fileId}`, { token: aliceToken }),
      );
      return items.find((c) => c.page === page)!;
    };
    const second = await chunkOn(pdf.id, 2);
    const section = await chunkOn(md.id, 1);
    const put = (json: unknown) =>
      call('/moduleknowledge/chunk', { method: 'PUT', token: aliceToken, ip: IP, json });
    expect((await put({ id: second.id, text: '第二页：差旅费按标准报销。' })).status).toBe(200);
    expect((await put({ id: section.id, enabled: false })).status).toBe(200);

    // A passage's id is a small number: the object filter may match other records' ids too.
    const aboutChunk = async (id: number) =>
      (await about(String(id))).filter((r) => r.object_type === 'chunk' && r.object_id === `${id}`);
    const [corrected] = await aboutChunk(second.id);
    expect(corrected).toMatchObject({
      action: 'knowledge.chunk_edit',
      object_type: 'chunk',
      object_label: pdfName,
      detail: { page: 2, section: null },
    });
    const [switched] = await aboutChunk(section.id);
    expect(switched).toMatchObject({
      action: 'knowledge.chunk_switch',
      object_label: mdName,
      detail: { enabled: false, page: 1 },
    });
    // The section as the passage's own location names it.
    const located = await data<{ section: string | null }>(
      await call(`/moduleknowledge/chunk?id=${section.id}`, { token: aliceToken }),
    );
    expect(located.section).toBeTruthy();
    expect(switched!.detail.section).toBe(located.section);
    await call(`/moduleknowledge/collection?id=${kb.id}`, { method: 'DELETE', token: aliceToken });
  });
});

describe('chat', () => {
  it('records a change of the official answers’ threshold; a viewer’s refused one records nothing', async () => {
    const name = `Settings ${crypto.randomUUID().slice(0, 6)}`;
    const { id } = await newCollection(aliceToken, name);
    const put = (token: string) =>
      call('/modulechat/answer_settings', {
        method: 'PUT',
        token,
        json: { collection_id: id, official_threshold: 0.85 },
      });
    await data(await put(aliceToken));
    await call('/moduleknowledge/collection_member', {
      token: aliceToken,
      json: { collection_id: id, username: bob.username, role: 'viewer' },
    });
    expect((await put(await tokenFor(bob.username, bob.password))).status).toBe(403);
    const records = (await about(id)).filter((r) => r.action === 'chat.answer_settings_update');
    expect(records).toEqual([
      expect.objectContaining({
        actor_id: alice.id,
        object_type: 'collection',
        object_label: name,
        detail: { official_threshold: 0.85 },
      }),
    ]);
    await call(`/moduleknowledge/collection?id=${id}`, { method: 'DELETE', token: aliceToken });
  });

  it('records the gap report’s export', async () => {
    const { id } = await newCollection(aliceToken, `Gaps ${crypto.randomUUID().slice(0, 6)}`);
    const res = await call(`/modulechat/gaps/export?collection_id=${id}`, { token: aliceToken });
    expect(res.status, await res.clone().text()).toBe(200);
    await res.arrayBuffer();
    const [record] = await about(id).then((rs) =>
      rs.filter((r) => r.action === 'chat.gaps_export'),
    );
    expect(record).toMatchObject({ actor_id: alice.id, object_type: 'collection' });
    // A viewer may not export: refused, nothing recorded.
    await call('/moduleknowledge/collection_member', {
      token: aliceToken,
      json: { collection_id: id, username: bob.username, role: 'viewer' },
    });
    const bobToken = await tokenFor(bob.username, bob.password);
    expect(
      (await call(`/modulechat/gaps/export?collection_id=${id}`, { token: bobToken })).status,
    ).toBe(403);
    expect((await about(id)).filter((r) => r.action === 'chat.gaps_export')).toHaveLength(1);
    await call(`/moduleknowledge/collection?id=${id}`, { method: 'DELETE', token: aliceToken });
  });
});
