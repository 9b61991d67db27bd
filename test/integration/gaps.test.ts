import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { readSse } from '#shared/service';
import { call, createUser, seededAdminToken, tokenFor } from '../helpers/auth';

// The gap report end to end with the offline model, whose embeddings are lexical: questions
// sharing most of their words group (年假有几天 / 年假一共有几天, 0.83), a reworded one with other
// words does not (年休假有多少天, 0.64), nor does the same question in another language.

type Passage = { file_id: string; chunk_id?: number | null; similarity: number | null };
type Group = {
  ids: number[];
  questions: string[];
  count: number;
  kinds: { refused: number; unhelpful: number; unsupported: number };
  latest: string;
  best_similarity: number | null;
  closest_passages: Passage[];
  resolved: boolean;
};
type Report = { collection_id: string; groups: Group[]; total: number };

const TAXI = [
  '出租车起步价：白天出租车起步价为13元，包含3公里。',
  '出租车夜间起步价：夜间（23时至次日5时）出租车起步价为16元，包含3公里。',
];

let alice = ''; // owns the collection
let bob = ''; // views it
let carol = ''; // keeps another collection
let bobName = '';
let collection = '';
let other = '';
let taxiFile = '';

const data = async <T>(res: Response): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: T }>()).data;
};

async function ask(token: string, prompt: string, collectionId = collection) {
  const res = await call('/modulechat/chat', {
    token,
    json: { prompt, collection_id: collectionId },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const events: { event: string; data: Record<string, unknown> }[] = [];
  for await (const { event, data: raw } of readSse(res.body!)) {
    events.push({ event, data: JSON.parse(raw) as Record<string, unknown> });
  }
  const conversation = events[0]!.data as { conversation_id: string; message_id: string };
  const error = events.find((e) => e.event === 'message' && e.data.type === 'error');
  return { messageId: conversation.message_id, refused: error?.data.code };
}

const report = (token: string, collectionId = collection, resolved = false) =>
  call(`/modulechat/gaps?collection_id=${collectionId}${resolved ? '&resolved=true' : ''}`, {
    token,
  });

/** Polls the report (questions are filed after the answer) until `done` holds. */
async function reportUntil(done: (r: Report) => boolean, resolved = false): Promise<Report> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = await data<Report>(await report(alice, collection, resolved));
    if (done(found)) return found;
    if (Date.now() > deadline)
      throw new Error(`report never as expected: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const groupOf = (r: Report, question: string) =>
  r.groups.find((g) => g.questions.includes(question));

const mark = (token: string, message_id: string, rating: string | null) =>
  call('/modulechat/message_feedback', { token, method: 'PUT', json: { message_id, rating } });

beforeAll(async () => {
  const [a, b, c] = await Promise.all([createUser(), createUser(), createUser()]);
  [alice, bob, carol] = await Promise.all([
    tokenFor(a.username, a.password),
    tokenFor(b.username, b.password),
    tokenFor(c.username, c.password),
  ]);
  bobName = b.username;
  collection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', { token: alice, json: { name: 'Gaps' } }),
    )
  ).id;
  other = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', { token: carol, json: { name: 'Elsewhere' } }),
    )
  ).id;
  await data(
    await call('/moduleknowledge/collection_member', {
      token: alice,
      json: { collection_id: collection, username: bobName, role: 'viewer' },
    }),
  );
  const form = new FormData();
  form.append('file', new File([makeTextPdf(TAXI)], '出租车.pdf'));
  form.append('collection_id', collection);
  taxiFile = (
    await data<{ id: string }>(await call('/moduleknowledge/upload', { token: alice, body: form }))
  ).id;
});

describe('the gap report', () => {
  it('files a refused question under its collection, with best similarity and closest passages', async () => {
    expect((await ask(alice, '年假有几天')).refused).toBe('no_relevant_knowledge');
    const found = await reportUntil((r) => groupOf(r, '年假有几天') !== undefined);
    const group = groupOf(found, '年假有几天')!;
    expect(group).toMatchObject({ count: 1, kinds: { refused: 1, unhelpful: 0, unsupported: 0 } });
    expect(group.resolved).toBe(false);
    expect(group.best_similarity).toBeGreaterThan(0);
    expect(group.best_similarity).toBeLessThan(0.5);
    expect(group.closest_passages.length).toBeGreaterThan(0);
    expect(group.closest_passages[0]!.file_id).toBe(taxiFile);
    const sims = group.closest_passages.map((p) => p.similarity!);
    expect(sims).toEqual([...sims].sort((x, y) => y - x));
    expect(group.best_similarity).toBeCloseTo(sims[0]!, 5);
  });

  it('groups rewordings that share their words, and keeps other questions apart', async () => {
    for (const q of [
      '年假一共有几天',
      '年休假有多少天',
      'how many days of annual leave',
      'How many days of annual leave do I get?',
      '病假工资怎么算',
    ]) {
      expect((await ask(alice, q)).refused).toBe('no_relevant_knowledge');
    }
    const found = await reportUntil((r) => r.total >= 6);
    expect(found.total).toBe(6);
    const chinese = groupOf(found, '年假有几天')!;
    expect(chinese.questions).toEqual(['年假一共有几天', '年假有几天']);
    expect(chinese.count).toBe(2);
    const english = groupOf(found, 'how many days of annual leave')!;
    expect(english.questions).toEqual([
      'How many days of annual leave do I get?',
      'how many days of annual leave',
    ]);
    // Lexical embeddings: other words, or another language, are another question here.
    expect(groupOf(found, '年休假有多少天')!.count).toBe(1);
    expect(groupOf(found, '病假工资怎么算')!.count).toBe(1);
    expect(found.groups).toHaveLength(4);
    // Largest first, then latest.
    expect(found.groups.map((g) => g.count)).toEqual([2, 2, 1, 1]);
    expect(found.groups[0]!.questions[0]).toBe('How many days of annual leave do I get?');
  });

  it('an unhelpful mark files the question; taking it back removes it', async () => {
    const answered = await ask(alice, '夜间出租车起步价是多少？');
    expect(answered.refused).toBeUndefined();
    const unhelpful = (r: Report) => groupOf(r, '夜间出租车起步价是多少？')?.kinds.unhelpful ?? 0;
    // The turn is stored after the stream: mark once it is there.
    const deadline = Date.now() + 10_000;
    while ((await mark(alice, answered.messageId, 'unhelpful')).status === 404) {
      if (Date.now() > deadline) throw new Error('turn never stored');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const filed = await reportUntil((r) => unhelpful(r) === 1);
    const group = groupOf(filed, '夜间出租车起步价是多少？')!;
    expect(group.closest_passages[0]!.file_id).toBe(taxiFile);
    expect(group.best_similarity).toBeGreaterThanOrEqual(0.5);
    // Marking it again (a new comment) files nothing more.
    await data(await mark(alice, answered.messageId, 'unhelpful'));
    await data(await mark(alice, answered.messageId, null));
    await reportUntil((r) => unhelpful(r) === 0);
  });

  it('a viewer who takes an unhelpful mark back withdraws their question too', async () => {
    const question = '白天出租车起步价包含几公里？';
    const answered = await ask(bob, question);
    expect(answered.refused).toBeUndefined();
    const unhelpful = (r: Report) => groupOf(r, question)?.kinds.unhelpful ?? 0;
    const deadline = Date.now() + 10_000;
    while ((await mark(bob, answered.messageId, 'unhelpful')).status === 404) {
      if (Date.now() > deadline) throw new Error('turn never stored');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await reportUntil((r) => unhelpful(r) === 1);
    // A viewer reads no report, yet withdraws their own question (migration 0025).
    await data(await mark(bob, answered.messageId, null));
    await reportUntil((r) => unhelpful(r) === 0);
  });

  it('is for the collection’s editors and owners: a viewer 403, another keeper 404', async () => {
    const asViewer = await report(bob);
    expect(asViewer.status).toBe(403);
    expect((await report(carol)).status).toBe(404);
    expect(
      (await call(`/modulechat/gaps/export?collection_id=${collection}`, { token: bob })).status,
    ).toBe(403);
    // Carol's own report never holds Alice's collection's questions.
    const hers = await data<Report>(await report(carol, other));
    expect(hers.groups.flatMap((g) => g.questions)).not.toContain('年假有几天');
  });

  it('exports CSV with a byte-order mark, one row per group', async () => {
    const res = await call(`/modulechat/gaps/export?collection_id=${collection}`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; .*\.csv/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const [header] = text.split('\r\n');
    expect(header).toBe(
      'group,count,refused,unhelpful,unsupported,latest,best_similarity,questions,closest_passages,resolved,ids',
    );
    expect(text).toContain('"年假一共有几天\n年假有几天"');
    expect(text).toContain('出租车.pdf p. ');
  });

  it('resolving a group hides it; resolved=true shows it again, resolved', async () => {
    const before = await reportUntil(() => true);
    const group = groupOf(before, '年假有几天')!;
    // A viewer cannot resolve: the questions are not there for them.
    const denied = await call('/modulechat/gaps_resolved', {
      token: bob,
      json: { ids: group.ids, resolved: true },
    });
    expect(denied.status).toBe(404);
    const resolved = await call('/modulechat/gaps_resolved', {
      token: alice,
      json: { ids: group.ids, resolved: true },
    });
    expect(resolved.status).toBe(204);
    const open = await data<Report>(await report(alice));
    expect(groupOf(open, '年假有几天')).toBeUndefined();
    expect(open.total).toBe(before.total - 2);
    const all = await data<Report>(await report(alice, collection, true));
    expect(groupOf(all, '年假有几天')).toMatchObject({ resolved: true, count: 2 });
  });
});

describe('the unhelpful-answers review', () => {
  it('a SUPER_ADMIN resolves an item (only they can); a refusal shows its closest passages', async () => {
    const refused = await ask(bob, '公积金怎么提取');
    expect(refused.refused).toBe('no_relevant_knowledge');
    const deadline = Date.now() + 10_000;
    while ((await mark(bob, refused.messageId, 'unhelpful')).status === 404) {
      if (Date.now() > deadline) throw new Error('turn never stored');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A viewer's refusal is filed too (they may file, not read back): the owner sees it.
    await reportUntil((r) => groupOf(r, '公积金怎么提取')?.kinds.refused === 1);
    const admin = await seededAdminToken();
    type Item = {
      id: string;
      username: string;
      resolved_at: string | null;
      closest_passages?: Passage[];
    };
    const list = async (resolved: boolean) =>
      (
        await data<{ items: Item[] }>(
          await call(`/modulechat/unhelpful_answers?size=100${resolved ? '&resolved=true' : ''}`, {
            token: admin,
          }),
        )
      ).items.find((item) => item.id === refused.messageId);
    const item = await list(false);
    expect(item).toMatchObject({ username: bobName, resolved_at: null });
    expect(item!.closest_passages![0]!.file_id).toBe(taxiFile);

    const resolve = (token: string, resolved: boolean) =>
      call('/modulechat/unhelpful_resolved', {
        token,
        method: 'PUT',
        json: { message_id: refused.messageId, resolved },
      });
    expect((await resolve(bob, true)).status).toBe(403);
    expect((await resolve(admin, true)).status).toBe(204);
    expect(await list(false)).toBeUndefined();
    expect((await list(true))!.resolved_at).toEqual(expect.any(String));
    expect((await resolve(admin, false)).status).toBe(204);
    expect((await list(false))!.resolved_at).toBeNull();
    // An answer nobody marked unhelpful is not the reviewer's to resolve.
    expect(
      (
        await call('/modulechat/unhelpful_resolved', {
          token: admin,
          method: 'PUT',
          json: { message_id: crypto.randomUUID(), resolved: true },
        })
      ).status,
    ).toBe(404);
  });
});
