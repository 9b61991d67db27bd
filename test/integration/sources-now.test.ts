import { beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '#shared/service';
import { call, createUser, tokenFor } from '../helpers/auth';

// An old answer's sources as they stand now, through chat and knowledge's binding: after the
// answer a cited file gets a new version, another one's document is repealed, a third is
// deleted; reading the conversation (and its record) says so, while what was stored of each
// source stays as the answer had it.

interface Now {
  state: string;
  validity?: { status: string; relations: { relation: string; file_id: string | null }[] };
  superseded_at?: string | null;
  current?: { id: string; name: string; version: number } | null;
}
interface Source {
  file_id: string;
  file_name: string;
  validity?: { status: string };
  now?: Now;
}

const data = async <T>(res: Response, status = 200): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
};

// A word of its own, so that only this test's files answer the question.
const WORD = `wombat${crypto.randomUUID().slice(0, 8)}`;
const text = (what: string) =>
  `# ${what}\n\nThe ${WORD} reception allowance is 300 yuan per guest under the ${what}.\n`;

let alice = '';
let collection = '';
const ids = { v1: '', v2: '', repealed: '', gone: '', repealer: '' };

async function upload(name: string, body: string, query = '') {
  const form = new FormData();
  form.append('file', new File([body], name, { type: 'text/markdown' }));
  form.append('collection_id', collection);
  const res = await call(`/moduleknowledge/upload${query}`, { token: alice, body: form });
  return (await data<{ id: string }>(res)).id;
}

/** Chats once; the conversation's id, once its turn is stored (it is written after the stream). */
async function ask(prompt: string): Promise<string> {
  const res = await call('/modulechat/chat', {
    token: alice,
    json: { prompt, collection_id: collection },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  let id = '';
  for await (const { event, data: raw } of readSse(res.body!)) {
    if (event === 'conversation')
      id = (JSON.parse(raw) as { conversation_id: string }).conversation_id;
  }
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if ((await sourcesOf(id)).length > 0) return id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`conversation ${id} was never stored`);
}

async function sourcesOf(id: string): Promise<Source[]> {
  const res = await call(`/modulechat/conversation?id=${id}`, { token: alice });
  if (res.status !== 200) return [];
  const conversation = await data<{ messages: { sources: Source[] }[] }>(res);
  return conversation.messages[0]?.sources ?? [];
}

const byFile = (sources: Source[], id: string) => sources.find((s) => s.file_id === id);

beforeAll(async () => {
  const user = await createUser();
  alice = await tokenFor(user.username, user.password);
  collection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', { token: alice, json: { name: 'Reception' } }),
    )
  ).id;
  ids.v1 = await upload('jiedai-2024.md', text('reception rules of 2024'));
  ids.repealed = await upload('old-notice.md', text('old reception notice'));
  ids.gone = await upload('draft.md', text('draft reception rules'));
});

describe('an old answer’s sources as they stand now', () => {
  it('says current, then superseded (naming the new version), repealed and deleted', async () => {
    const id = await ask(`How much is the ${WORD} reception allowance per guest?`);
    const then = await sourcesOf(id);
    for (const file of [ids.v1, ids.repealed, ids.gone]) {
      expect(byFile(then, file), file).toMatchObject({ now: { state: 'current' } });
    }

    ids.v2 = await upload(
      'jiedai-2024-v2.md',
      text('reception rules of 2024, revised'),
      `?replaces=${ids.v1}`,
    );
    ids.repealer = await upload('new-notice.md', '# New notice\n\nIt repeals the old notice.\n');
    await data(
      await call('/moduleknowledge/file_relation', {
        token: alice,
        json: { file_id: ids.repealer, relation: 'repeals', target_file_id: ids.repealed },
      }),
    );
    const deleted = await call(`/moduleknowledge/file?id=${ids.gone}`, {
      method: 'DELETE',
      token: alice,
    });
    expect(deleted.status).toBe(204);

    const now = await sourcesOf(id);
    expect(byFile(now, ids.v1)).toMatchObject({
      file_name: 'jiedai-2024.md',
      now: {
        state: 'superseded',
        current: { id: ids.v2, name: 'jiedai-2024-v2.md', version: 2 },
        validity: { status: 'in_force' },
      },
    });
    expect(byFile(now, ids.v1)!.now!.superseded_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byFile(now, ids.repealed)).toMatchObject({
      // As the answer had it, and as it is now.
      validity: { status: 'in_force' },
      now: {
        state: 'current',
        validity: {
          status: 'repealed',
          relations: [expect.objectContaining({ relation: 'repealed_by', file_id: ids.repealer })],
        },
      },
    });
    expect(byFile(now, ids.gone)).toMatchObject({
      file_name: 'draft.md',
      now: { state: 'deleted' },
    });
    // What was stored stays as it was: only `now` differs.
    const stored = (sources: Source[]) => sources.map(({ now: _now, ...rest }) => rest);
    expect(stored(now)).toEqual(stored(then));

    const record = await call(`/modulechat/conversation/export?id=${id}`, { token: alice });
    const markdown = await record.text();
    expect(record.status, markdown).toBe(200);
    expect(markdown).toContain(
      'This file has a newer version since this answer: jiedai-2024-v2.md (version 2, since',
    );
    expect(markdown).toContain('This file has been deleted since this answer.');
    expect(markdown).toContain('validity at the answer in force');
    expect(markdown).toContain('Its document is now repealed by new-notice.md.');
  });

  it('tells a file another user cannot read only as unavailable, and a deleted one apart', async () => {
    const stranger = await createUser();
    const token = await tokenFor(stranger.username, stranger.password);
    const ask = (who: string) =>
      call('/moduleknowledge/file_states', {
        token: who,
        json: {
          files: [
            { id: ids.v1, collection_id: collection },
            { id: ids.gone, collection_id: collection },
          ],
        },
      });
    expect(await data<Now[]>(await ask(token))).toEqual([
      { id: ids.v1, state: 'unavailable' },
      { id: ids.gone, state: 'unavailable' },
    ]);
    expect(await data<Now[]>(await ask(alice))).toMatchObject([
      { id: ids.v1, state: 'superseded', current: { id: ids.v2 } },
      { id: ids.gone, state: 'deleted' },
    ]);
  });
});
