import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { readSse } from '#shared/service';
import { exports } from 'cloudflare:workers';
import { BASE, call, createUser, seededAdminToken, tokenFor } from '../helpers/auth';
import { asAppRole, databaseError, queryRows } from '../helpers/database';
import { expectProblem } from '../helpers/hostile';

type Event = { event: string; data: Record<string, unknown> };
type Source = { file_id: string; page: number; similarity: number | null };
type Turn = {
  id: string;
  question: string;
  retrieval_question: string;
  answer: string;
  status: string;
  code: string | null;
  sources: Source[];
  feedback: { rating: string; comment: string | null } | null;
};
type Conversation = {
  id: string;
  title: string;
  file_id: string[] | null;
  collection_id: string[] | null;
  messages: Turn[];
};

const data = async <T>(res: Response): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: T }>()).data;
};

/** The stream's events, and what they say: the conversation, the answer, its sources. */
async function turn(token: string, body: Record<string, unknown>) {
  const res = await call('/modulechat/chat', { token, json: body });
  expect(res.status, await res.clone().text()).toBe(200);
  const events: Event[] = [];
  for await (const { event, data: raw } of readSse(res.body!)) {
    events.push({ event, data: JSON.parse(raw) as Record<string, unknown> });
  }
  expect(events[0]?.event).toBe('conversation');
  const conversation = events[0]!.data as {
    conversation_id: string;
    message_id: string;
    created: boolean;
    title: string;
  };
  const messages = events.filter((e) => e.event === 'message').map((e) => e.data);
  const error = messages.find((m) => m.type === 'error');
  // The first content message is the prompt echo; the answer follows it.
  const answer = messages
    .slice(1)
    .map((m) => m.content)
    .join('');
  const sources = (events.find((e) => e.event === 'sources')?.data ?? []) as unknown as Source[];
  return { conversation, error, answer, sources, events };
}

/** Polls the stored conversation until the turn is there (it is written after the stream). */
async function stored(token: string, id: string, turns: number): Promise<Conversation> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await call(`/modulechat/conversation?id=${id}`, { token });
    if (res.status === 200) {
      const conversation = await data<Conversation>(res);
      if (conversation.messages.length >= turns) return conversation;
    } else expect(res.status).toBe(404);
    if (Date.now() > deadline) throw new Error(`conversation ${id} never had ${turns} turns`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function newCollection(token: string, name: string): Promise<string> {
  return (
    await data<{ id: string }>(await call('/moduleknowledge/collection', { token, json: { name } }))
  ).id;
}

async function upload(token: string, pages: string[], name: string, collection: string) {
  const form = new FormData();
  form.append('file', new File([makeTextPdf(pages)], name));
  form.append('collection_id', collection);
  return (await data<{ id: string }>(await call('/moduleknowledge/upload', { token, body: form })))
    .id;
}

// Three pages: the answer to the first question, the answer to its follow-up, and a page that
// the follow-up's own words ("freight") find better than the right one.
const ENGLISH = [
  'Quillmoor refund rule. Passenger tickets are refunded within 14 days of the request, less a handling fee of 19 euros.',
  'Quillmoor refund rule for freight. Freight consignments are refunded within 30 days of the claim, with no handling fee.',
  'Freight yard hours. The freight yard and the freight office open at 6:00 for freight deliveries and freight pickups.',
];
const CHINESE = [
  '出租车起步价：白天出租车起步价为13元，包含3公里。',
  '出租车夜间起步价：夜间（23时至次日5时）出租车起步价为16元，包含3公里。',
  '夜间施工管理：夜间施工须提前办理夜间施工许可，夜间噪声不得超过55分贝。',
];

let alice: { token: string; id: string };
let bob: { token: string; id: string };
let collection = '';
let englishFile = '';
let chineseFile = '';

beforeAll(async () => {
  const [a, b] = await Promise.all([createUser(), createUser()]);
  alice = { id: a.id, token: await tokenFor(a.username, a.password) };
  bob = { id: b.id, token: await tokenFor(b.username, b.password) };
  collection = await newCollection(alice.token, 'Conversations');
  englishFile = await upload(alice.token, ENGLISH, 'quillmoor.pdf', collection);
  chineseFile = await upload(alice.token, CHINESE, '出租车.pdf', collection);
});

describe('a follow-up is understood in the light of the conversation', () => {
  it('English: “And what about freight?” is answered from the freight refund page', async () => {
    const first = await turn(alice.token, {
      prompt: 'What is the Quillmoor refund rule?',
      collection_id: collection,
    });
    expect(first.conversation.created).toBe(true);
    expect(first.conversation.title).toBe('What is the Quillmoor refund rule?');
    expect(first.error).toBeUndefined();

    const followUp = await turn(alice.token, {
      prompt: 'And what about freight?',
      conversation_id: first.conversation.conversation_id,
    });
    expect(followUp.conversation).toMatchObject({
      conversation_id: first.conversation.conversation_id,
      created: false,
    });
    expect(followUp.error).toBeUndefined();
    expect(followUp.sources[0]).toMatchObject({ file_id: englishFile, page: 2 });
    expect(followUp.answer).toContain('30 days');

    // Alone, the same words find the freight yard instead: the conversation made the difference.
    const alone = await turn(alice.token, {
      prompt: 'And what about freight?',
      collection_id: collection,
    });
    expect(alone.sources[0]).not.toMatchObject({ file_id: englishFile, page: 2 });

    const saved = await stored(alice.token, first.conversation.conversation_id, 2);
    expect(saved.collection_id).toEqual([collection]);
    expect(saved.messages.map((m) => m.question)).toEqual([
      'What is the Quillmoor refund rule?',
      'And what about freight?',
    ]);
    expect(saved.messages[1]!.retrieval_question).toMatch(/^And what about freight\? .*Quillmoor/);
    expect(saved.messages[1]).toMatchObject({
      status: 'complete',
      id: followUp.conversation.message_id,
    });
    expect(saved.messages[1]!.answer).toContain('30 days');
    expect(saved.messages[1]!.sources[0]).toMatchObject({ file_id: englishFile, page: 2 });
  });

  it('Chinese: “那夜间呢？” is answered from the night fare page', async () => {
    const first = await turn(alice.token, {
      prompt: '出租车起步价是多少？',
      collection_id: collection,
    });
    expect(first.sources[0]).toMatchObject({ file_id: chineseFile });
    const followUp = await turn(alice.token, {
      prompt: '那夜间呢？',
      conversation_id: first.conversation.conversation_id,
    });
    expect(followUp.error).toBeUndefined();
    expect(followUp.sources[0]).toMatchObject({ file_id: chineseFile, page: 2 });
    expect(followUp.answer).toContain('16元');
    const alone = await turn(alice.token, { prompt: '那夜间呢？', collection_id: collection });
    expect(alone.sources[0]).not.toMatchObject({ file_id: chineseFile, page: 2 });
  });

  it('a turn limited to files keeps its files for the follow-ups that name none', async () => {
    const first = await turn(alice.token, {
      prompt: 'What is the Quillmoor refund rule?',
      file_id: [englishFile],
    });
    await turn(alice.token, {
      prompt: 'And what about freight?',
      conversation_id: first.conversation.conversation_id,
    });
    const saved = await stored(alice.token, first.conversation.conversation_id, 2);
    expect(saved.file_id).toEqual([englishFile]);
    expect(saved.collection_id).toBeNull();
    expect(saved.messages[1]!.sources.every((s) => s.file_id === englishFile)).toBe(true);
  });

  it('a refused turn is stored as refused, with its code and the message shown', async () => {
    const refused = await turn(alice.token, {
      prompt: 'Zebra migration timetable in Antarctica',
      collection_id: collection,
    });
    expect(refused.error).toMatchObject({ code: 'no_relevant_knowledge' });
    const saved = await stored(alice.token, refused.conversation.conversation_id, 1);
    expect(saved.messages[0]).toMatchObject({
      status: 'refused',
      code: 'no_relevant_knowledge',
      answer: refused.error!.content,
      sources: [],
    });
  });
});

describe('conversations are their user’s alone', () => {
  let aliceConversation = '';
  let aliceMessage = '';

  beforeAll(async () => {
    const first = await turn(alice.token, {
      prompt: 'What is the Quillmoor refund rule?',
      collection_id: collection,
    });
    aliceConversation = first.conversation.conversation_id;
    aliceMessage = first.conversation.message_id;
    await stored(alice.token, aliceConversation, 1);
  });

  it('lists newest first, a page at a time', async () => {
    const second = await turn(alice.token, {
      prompt: '出租车起步价是多少？',
      collection_id: collection,
    });
    await stored(alice.token, second.conversation.conversation_id, 1);
    const page = await data<{ items: { id: string }[]; total: number; page: number; size: number }>(
      await call('/modulechat/conversations?page=1&size=1', { token: alice.token }),
    );
    expect(page.items.map((c) => c.id)).toEqual([second.conversation.conversation_id]);
    expect(page.total).toBeGreaterThanOrEqual(2);
    // A new turn moves an older conversation to the top.
    await turn(alice.token, {
      prompt: 'And what about freight?',
      conversation_id: aliceConversation,
    });
    await stored(alice.token, aliceConversation, 2);
    const top = await data<{ items: { id: string }[] }>(
      await call('/modulechat/conversations?size=1', { token: alice.token }),
    );
    expect(top.items[0]!.id).toBe(aliceConversation);
  });

  it('another user cannot list, read, continue, rename, delete or mark it: 404', async () => {
    const listed = await data<{ items: { id: string }[] }>(
      await call('/modulechat/conversations?size=100', { token: bob.token }),
    );
    expect(listed.items.map((c) => c.id)).not.toContain(aliceConversation);
    for (const [path, options] of [
      [`/modulechat/conversation?id=${aliceConversation}`, {}],
      [
        '/modulechat/conversation',
        { method: 'PUT', json: { id: aliceConversation, title: 'mine' } },
      ],
      [`/modulechat/conversation?id=${aliceConversation}`, { method: 'DELETE' }],
      [
        '/modulechat/chat',
        { json: { prompt: 'And freight?', conversation_id: aliceConversation } },
      ],
      [
        '/modulechat/message_feedback',
        { method: 'PUT', json: { message_id: aliceMessage, rating: 'unhelpful' } },
      ],
    ] as const) {
      const res = await call(path, { token: bob.token, ...options });
      expect(res.status, `${options.method ?? 'GET'} ${path}`).toBe(404);
    }
    // A SUPER_ADMIN has no read access to others' conversations either.
    const admin = await seededAdminToken();
    expect(
      (await call(`/modulechat/conversation?id=${aliceConversation}`, { token: admin })).status,
    ).toBe(404);
    const saved = await stored(alice.token, aliceConversation, 1);
    expect(saved.title).toBe('What is the Quillmoor refund rule?');
    expect(saved.messages[0]!.feedback).toBeNull();
  });

  it('Postgres enforces it: as the workers’ role, Bob’s session sees none of Alice’s rows', async () => {
    const seen = await asAppRole({ id: bob.id }, async (tx) => ({
      conversations: (await tx.execute(sql`select id from conversations`)).rows,
      messages: (await tx.execute(sql`select id from messages`)).rows,
      renamed: (await tx.execute(sql`update conversations set title = 'x' returning id`)).rows,
    }));
    expect(seen).toEqual({ conversations: [], messages: [], renamed: [] });
    expect(
      await databaseError(
        asAppRole({ id: bob.id }, (tx) =>
          tx.execute(sql`insert into messages (conversation_id, question, retrieval_question, status, language)
                         values (${aliceConversation}::uuid, 'q', 'q', 'complete', 'en')`),
        ),
      ),
    ).toMatch(/row-level security/);
  });

  it('renames and deletes, turns and all', async () => {
    const first = await turn(alice.token, {
      prompt: 'What is the Quillmoor refund rule?',
      collection_id: collection,
    });
    const id = first.conversation.conversation_id;
    await stored(alice.token, id, 1);
    const renamed = await data<{ title: string }>(
      await call('/modulechat/conversation', {
        token: alice.token,
        method: 'PUT',
        json: { id, title: '  退款 refunds  ' },
      }),
    );
    expect(renamed.title).toBe('退款 refunds');
    expect(
      (await call(`/modulechat/conversation?id=${id}`, { token: alice.token, method: 'DELETE' }))
        .status,
    ).toBe(204);
    expect((await call(`/modulechat/conversation?id=${id}`, { token: alice.token })).status).toBe(
      404,
    );
    const [left] = await queryRows<{ turns: number }>(
      sql`select count(*)::int as turns from messages where conversation_id = ${id}::uuid`,
    );
    expect(left!.turns).toBe(0);
  });
});

describe('feedback', () => {
  it('marks an answer; unhelpful ones (and only those) reach the SUPER_ADMINs who review', async () => {
    const good = await turn(bob.token, {
      prompt: 'What is the Quillmoor refund rule?',
      collection_id: collection,
    });
    const bad = await turn(bob.token, {
      prompt: '出租车起步价是多少？',
      collection_id: collection,
    });
    await stored(bob.token, good.conversation.conversation_id, 1);
    await stored(bob.token, bad.conversation.conversation_id, 1);
    const mark = (message_id: string, rating: string | null, comment?: string) =>
      call('/modulechat/message_feedback', {
        token: bob.token,
        method: 'PUT',
        json: { message_id, rating, ...(comment === undefined ? {} : { comment }) },
      });
    expect(await data(await mark(good.conversation.message_id, 'helpful'))).toMatchObject({
      feedback: { rating: 'helpful', comment: null },
    });
    expect(
      await data(await mark(bad.conversation.message_id, 'unhelpful', '没有回答夜间价格')),
    ).toMatchObject({
      feedback: { rating: 'unhelpful', comment: '没有回答夜间价格' },
    });
    const saved = await stored(bob.token, bad.conversation.conversation_id, 1);
    expect(saved.messages[0]!.feedback).toMatchObject({
      rating: 'unhelpful',
      comment: '没有回答夜间价格',
    });

    const admin = await seededAdminToken();
    const review = await data<{ items: (Turn & { username: string; conversation_id: string })[] }>(
      await call('/modulechat/unhelpful_answers?size=100', { token: admin }),
    );
    const found = review.items.find((m) => m.id === bad.conversation.message_id);
    expect(found).toMatchObject({
      question: '出租车起步价是多少？',
      conversation_id: bad.conversation.conversation_id,
      feedback: { rating: 'unhelpful', comment: '没有回答夜间价格' },
    });
    expect(found!.username).toMatch(/^user-/);
    expect(review.items.map((m) => m.id)).not.toContain(good.conversation.message_id);
    // Reviewing is reading: the admin still cannot open Bob's conversation, nor mark his answer.
    expect(
      (
        await call(`/modulechat/conversation?id=${bad.conversation.conversation_id}`, {
          token: admin,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call('/modulechat/message_feedback', {
          token: admin,
          method: 'PUT',
          json: { message_id: bad.conversation.message_id, rating: 'helpful' },
        })
      ).status,
    ).toBe(404);
    // A user is no reviewer.
    expect((await call('/modulechat/unhelpful_answers', { token: bob.token })).status).toBe(403);

    // Taking the mark back takes the answer out of review.
    expect(await data(await mark(bad.conversation.message_id, null))).toMatchObject({
      feedback: null,
    });
    const after = await data<{ items: { id: string }[] }>(
      await call('/modulechat/unhelpful_answers?size=100', { token: admin }),
    );
    expect(after.items.map((m) => m.id)).not.toContain(bad.conversation.message_id);
  });
});

describe('a stream the client leaves', () => {
  it('is stored with what was answered by then, marked incomplete', async () => {
    const abort = new AbortController();
    const res = await exports.default.fetch(
      new Request(`${BASE}/modulechat/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${alice.token}` },
        // Several sentences answer it: a long answer, streamed a word at a time.
        body: JSON.stringify({
          prompt:
            'Quillmoor refund rule: passenger tickets, freight consignments, handling fee, days',
          collection_id: collection,
        }),
        signal: abort.signal,
      }),
    );
    const reader = readSse(res.body!);
    const first = (await reader.next()).value!;
    expect(first.event).toBe('conversation');
    const { conversation_id } = JSON.parse(first.data) as { conversation_id: string };
    await reader.next(); // the prompt echo
    const chunk = JSON.parse((await reader.next()).value!.data) as { content: string };
    abort.abort(); // the client is gone
    await reader.return(undefined);
    const saved = await stored(alice.token, conversation_id, 1);
    expect(saved.messages[0]!.status, saved.messages[0]!.answer).toBe('incomplete');
    expect(saved.messages[0]!.answer.startsWith(chunk.content)).toBe(true);
    expect(saved.messages[0]!.answer).not.toContain('30 days of the claim'); // not the whole answer
  });
});

describe('hostile input: 4xx, nothing written', () => {
  it('refuses bad ids, titles, ratings and comments', async () => {
    // A user of its own, with no turn still being stored from another test.
    const created = await createUser();
    const carol = { id: created.id, token: await tokenFor(created.username, created.password) };
    const counts = () =>
      queryRows<{ conversations: number; messages: number }>(
        sql`select (select count(*)::int from conversations where user_id = ${carol.id}::uuid) as conversations,
                   (select count(*)::int from messages where user_id = ${carol.id}::uuid) as messages`,
      );
    const before = await counts();
    const cases: [string, Parameters<typeof call>[1], number][] = [
      ['/modulechat/chat', { json: { prompt: 'x', conversation_id: 'not-a-uuid' } }, 400],
      ['/modulechat/chat', { json: { prompt: 'x', conversation_id: crypto.randomUUID() } }, 404],
      ['/modulechat/conversation?id=1%27%20or%201=1', {}, 400],
      [
        '/modulechat/conversation',
        { method: 'PUT', json: { id: crypto.randomUUID(), title: '   ' } },
        400,
      ],
      [
        '/modulechat/conversation',
        { method: 'PUT', json: { id: crypto.randomUUID(), title: 'x'.repeat(201) } },
        400,
      ],
      [
        '/modulechat/conversation',
        { method: 'PUT', json: { id: crypto.randomUUID(), title: 'a\u0000b' } },
        400,
      ],
      [
        '/modulechat/conversation',
        { method: 'PUT', json: { id: crypto.randomUUID(), title: 'fine' } },
        404,
      ],
      [
        '/modulechat/message_feedback',
        { method: 'PUT', json: { message_id: crypto.randomUUID(), rating: 'meh' } },
        400,
      ],
      [
        '/modulechat/message_feedback',
        {
          method: 'PUT',
          json: { message_id: crypto.randomUUID(), rating: 'helpful', comment: 'x'.repeat(2001) },
        },
        400,
      ],
      [
        '/modulechat/message_feedback',
        { method: 'PUT', json: { message_id: crypto.randomUUID(), rating: 'helpful' } },
        404,
      ],
      ['/modulechat/conversations?size=1000', {}, 400],
      ['/modulechat/conversations?page=0', {}, 400],
    ];
    for (const [path, options, status] of cases) {
      const res = await call(path, { token: carol.token, ...options });
      await expectProblem(res, [status], undefined, path);
    }
    expect(await counts()).toEqual(before);
  });
});
