import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { readSse } from '#shared/service';
import { call, createUser, tokenFor } from '../helpers/auth';

const data = async <T>(res: Response): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: T }>()).data;
};

/** Chats once; the conversation's id, once its turn is stored (it is written after the stream). */
async function ask(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await call('/modulechat/chat', { token, json: body });
  expect(res.status, await res.clone().text()).toBe(200);
  let id = '';
  for await (const { event, data: raw } of readSse(res.body!)) {
    if (event === 'conversation')
      id = (JSON.parse(raw) as { conversation_id: string }).conversation_id;
  }
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stored = await call(`/modulechat/conversation?id=${id}`, { token });
    if (stored.status === 200) {
      const conversation = await data<{ messages: unknown[] }>(stored);
      if (conversation.messages.length > 0) return id;
    }
    if (Date.now() > deadline) throw new Error(`conversation ${id} was never stored`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const PAGES = [
  'Marrowfield archive rules. Visitors register at the front desk before entering the reading room.',
  'Marrowfield archive loans. Bound registers may be borrowed for at most 21 days, and only by staff.',
];

let alice = '';
let bob = '';
let collection = '';

beforeAll(async () => {
  const [a, b] = await Promise.all([createUser(), createUser()]);
  [alice, bob] = await Promise.all([
    tokenFor(a.username, a.password),
    tokenFor(b.username, b.password),
  ]);
  collection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', { token: alice, json: { name: 'Records' } }),
    )
  ).id;
  const form = new FormData();
  form.append('file', new File([makeTextPdf(PAGES)], 'marrowfield.pdf'));
  form.append('collection_id', collection);
  await data(await call('/moduleknowledge/upload', { token: alice, body: form }));
});

describe('a conversation exported as its record', () => {
  it('has the question, the answer, the model, the file, the page and the passage', async () => {
    const question = 'How long may Marrowfield bound registers be borrowed?';
    const id = await ask(alice, { prompt: question, collection_id: collection });

    const res = await call(`/modulechat/conversation/export?id=${id}&format=markdown`, {
      token: alice,
    });
    const markdown = await res.text();
    expect(res.status, markdown).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(res.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent(question).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())}.md`,
    );
    expect(markdown).toMatch(/^# How long may Marrowfield bound registers be borrowed\?\n/);
    expect(markdown).toContain(`> ${question}`);
    expect(markdown).toContain('## Turn 1');
    // The offline model quotes the passage: its sentence is the answer.
    expect(markdown).toMatch(/### Answer\n\n.*21 days/);
    expect(markdown).toMatch(/Asked: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(markdown).toContain('Model at export: ');
    expect(markdown).toContain('offline demo model');
    expect(markdown).toMatch(/\*\*\[1\] marrowfield\.pdf\*\*, page 2, cited 1st/);
    expect(markdown).toMatch(
      /```text\n[^`]*Bound registers may be borrowed for at most 21 days, and only by staff\.[^`]*\n```/,
    );

    // In the reader's time zone (the web app sends its browser's), each time with its offset.
    const local = await call(
      `/modulechat/conversation/export?id=${id}&time_zone=${encodeURIComponent('Asia/Shanghai')}`,
      { token: alice },
    );
    const localText = await local.text();
    expect(local.status, localText).toBe(200);
    expect(localText).toMatch(/Asked: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\+08:00/);
    expect(localText).toContain('- Time zone: Asia/Shanghai');
    const nowhere = await call(
      `/modulechat/conversation/export?id=${id}&time_zone=Mars%2FOlympus`,
      {
        token: alice,
      },
    );
    expect(nowhere.status).toBe(400);
  });

  it('says when a cited passage was corrected or switched off after the answer', async () => {
    const id = await ask(alice, {
      prompt: 'Who may borrow Marrowfield bound registers?',
      collection_id: collection,
    });
    const before = await (
      await call(`/modulechat/conversation/export?id=${id}`, { token: alice })
    ).text();
    expect(before).not.toMatch(/Corrected by a keeper|Switched off/);
    const conversation = await data<{ messages: { sources: { chunk_id: number | null }[] }[] }>(
      await call(`/modulechat/conversation?id=${id}`, { token: alice }),
    );
    const chunk = conversation.messages[0]!.sources.find((s) => s.chunk_id !== null)!.chunk_id!;
    const corrected = 'Marrowfield archive loans. Bound registers may be borrowed for 14 days.';
    for (const body of [
      { id: chunk, text: corrected },
      { id: chunk, enabled: false },
    ]) {
      const res = await call('/moduleknowledge/chunk', { token: alice, method: 'PUT', json: body });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    }
    const after = await (
      await call(`/modulechat/conversation/export?id=${id}`, { token: alice })
    ).text();
    expect(after).toContain(corrected);
    expect(after).toMatch(
      /\*Corrected by a keeper on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, after this answer: the text above is the corrected one/,
    );
    expect(after).toContain('*Switched off by a keeper since: no longer searched.*');
    // A later answer, given the corrected passage, says nothing of the correction.
    await call('/moduleknowledge/chunk', {
      token: alice,
      method: 'PUT',
      json: { id: chunk, enabled: true },
    });
    const later = await ask(alice, {
      prompt: 'Who may borrow Marrowfield bound registers?',
      collection_id: collection,
    });
    const fresh = await (
      await call(`/modulechat/conversation/export?id=${later}`, { token: alice })
    ).text();
    expect(fresh).not.toMatch(/Corrected by a keeper|Switched off/);
  });

  it('is the owner’s alone: another user gets 404, as for a conversation that is not there', async () => {
    const id = await ask(alice, {
      prompt: 'Where do Marrowfield visitors register?',
      collection_id: collection,
    });
    const other = await call(`/modulechat/conversation/export?id=${id}`, { token: bob });
    expect(other.status).toBe(404);
    const missing = await call(`/modulechat/conversation/export?id=${crypto.randomUUID()}`, {
      token: alice,
    });
    expect(missing.status).toBe(404);
    expect((await call(`/modulechat/conversation/export?id=${id}`)).status).toBe(401);
  });
});

describe('health', () => {
  it('says which model answers, and that locally it is the offline stand-in', async () => {
    const health = await data<{ model: { name: string; offline: boolean } }>(
      await call('/modulechat/health'),
    );
    expect(health.model).toMatchObject({ offline: true });
    expect(health.model.name).toEqual(expect.any(String));
  });
});
