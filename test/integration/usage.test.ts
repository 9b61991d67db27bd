// Quotas and usage (workers/chat/src/usage, store/usage.ts, migration 0027): every question's
// tokens counted per day, user, key and collection in the batch that stores it; the daily
// limits refuse a question with 429 before any model is asked; a full collection refuses an
// upload before anything is kept; limits are the super admins'. The limits are one row for the
// whole service, so this file runs on a stack of its own (vitest.config.ts, MODEL_CONTROLLED).
import { exports } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { readSse } from '#shared/service';
import {
  ACCESS_DENIED,
  call,
  createUser,
  deleteUser,
  refusal,
  seededAdminToken,
  tokenFor,
  type TestUser,
} from '../helpers/auth';
import { queryRows } from '../helpers/database';
import { bucketKeys, expectProblem } from '../helpers/hostile';
import { callTool, mcpClient, type ToolError } from '../helpers/mcp';

const stack = inject('stack');
const TAG = crypto.randomUUID().slice(0, 8);
const WORD = `Usagrove${TAG}`;
/** No API key in usage_daily; also the id of the shared collection. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

type User = TestUser & { token: string };
let admin = '';
let alice: User;
let bob: User;
let collection = '';
let fileId = '';
let key = { id: '', key: '' };

interface Amounts {
  questions: number;
  embedding_tokens: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}
interface Report {
  totals: Amounts;
  days: (Amounts & { day: string })[];
  by_key: (Amounts & { key_id: string | null; key_name: string | null })[];
  by_collection: (Amounts & { collection_id: string | null; collection_name: string | null })[];
  today: { questions: number; total_tokens: number; limits: object; resets_at: string };
  storage: { bytes: number; limit: number | null };
}
interface Limits {
  user_daily_tokens: number | null;
  user_daily_questions: number | null;
  collection_max_bytes: number | null;
  collection_max_files: number | null;
  user_max_bytes: number | null;
  audit_questions: boolean;
  audit_retention_days: number;
}
const NO_LIMITS: Limits = {
  user_daily_tokens: null,
  user_daily_questions: null,
  collection_max_bytes: null,
  collection_max_files: null,
  user_max_bytes: null,
  audit_questions: true,
  audit_retention_days: 1095,
};

const data = async <T>(res: Response): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: T }>()).data;
};

async function userWithToken(): Promise<User> {
  const user = await createUser();
  return { ...user, token: await tokenFor(user.username, user.password) };
}

const chatRequest = (token: string, body: Record<string, unknown>) =>
  exports.default.fetch(
    new Request('http://kb.test/modulechat/chat', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }),
  );

async function chat(token: string, body: Record<string, unknown>) {
  const res = await chatRequest(token, body);
  expect(res.status).toBe(200);
  const events: { event: string; data: Record<string, unknown> }[] = [];
  for await (const { event, data: text } of readSse(res.body!)) {
    events.push({ event, data: JSON.parse(text) as Record<string, unknown> });
  }
  return events;
}

const door = (token: string, body: Record<string, unknown>) =>
  call('/modulechat/v1/chat/completions', { token, json: body });

/** A limit's refusal: the problem shape with the limit's own members, and no internals. */
async function limitProblem(res: Response, status: number, code: string) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type'), text).toBe('application/problem+json');
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body, text).toMatchObject({
    type: 'about:blank',
    status,
    code,
    detail: expect.any(String),
  });
  expect(text).not.toMatch(/drizzle|neon|postgres|SQLSTATE|KBQ0/i);
  return body;
}

const putLimits = (token: string, limits: Partial<Limits>) =>
  call('/modulechat/limits', { token, method: 'PUT', json: limits });

/** Today's usage rows of a user (the database's own view, not the API's). */
const rowsOf = (userId: string) =>
  queryRows<{
    key_id: string;
    collection_id: string;
    questions: number;
    embedding_tokens: string;
    prompt_tokens: string;
    completion_tokens: string;
  }>(sql`select key_id::text, collection_id::text, questions, embedding_tokens::text,
    prompt_tokens::text, completion_tokens::text from usage_daily
    where user_id = ${userId}::uuid and day = (now() at time zone 'UTC')::date`);

/** The chat completions the offline model was asked that mention `text`. */
/**
 * The chat model's requests that carry `text`. (A new conversation's limits are checked beside
 * its retrieval, so an asker over a limit may cost the question's embedding, never an answer.)
 */
async function completionsMentioning(text: string): Promise<number> {
  const res = await fetch(`${stack.modelControlUrl}/requests`);
  const all = await res.json<{ path: string; body: unknown }[]>();
  return all.filter(
    (r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes(text),
  ).length;
}

/** The embedding requests the model was sent that carry `text`. */
async function embeddingsMentioning(text: string): Promise<number> {
  const res = await fetch(`${stack.modelControlUrl}/requests`);
  const all = await res.json<{ path: string; body: unknown }[]>();
  return all.filter((r) => r.path.endsWith('/embeddings') && JSON.stringify(r.body).includes(text))
    .length;
}

/** The tokens the offline model counts for one embedding of `text`. */
async function embeddingTokens(text: string): Promise<number> {
  const one = await fetch(stack.modelControlUrl.replace(/\/_control$/, '/v1/embeddings'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'offline-embedding', input: text }),
  });
  return (await one.json<{ usage: { prompt_tokens: number } }>()).usage.prompt_tokens;
}

/** Waits for the turn stored after the stream (waitUntil) to show in the usage rows. */
async function settledRows(userId: string, questions: number) {
  await expect
    .poll(async () => (await rowsOf(userId)).reduce((n, r) => n + r.questions, 0), {
      timeout: 10_000,
    })
    .toBe(questions);
  return rowsOf(userId);
}

beforeAll(async () => {
  // The model stand-in is shared with the other files of this project, which schedule failures
  // and delays on it: start from none.
  const reset = await fetch(`${stack.modelControlUrl}/reset`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(reset.status).toBe(200);
  admin = await seededAdminToken();
  [alice, bob] = await Promise.all([userWithToken(), userWithToken()]);
  await data(await putLimits(admin, NO_LIMITS));
  collection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: alice.token,
        json: { name: `Usage ${TAG}` },
      }),
    )
  ).id;
  const form = new FormData();
  form.append(
    'file',
    new File(
      [makeTextPdf([`The ${WORD} ferry leaves the harbour at seven every morning, all year.`])],
      'ferry.pdf',
    ),
  );
  form.append('collection_id', collection);
  fileId = (
    await data<{ id: string }>(
      await call('/moduleknowledge/upload', { token: alice.token, body: form }),
    )
  ).id;
  key = await data<{ id: string; key: string }>(
    await call('/moduleauth/api_key', { token: alice.token, json: { name: `script ${TAG}` } }),
  );
});

afterAll(async () => {
  await putLimits(admin, NO_LIMITS);
  for (const user of [alice, bob]) if (user) await deleteUser(user.id);
});

describe('usage is recorded', () => {
  it('for the SSE chat: the question, its embedding and generation tokens, under the user and the collection asked, with a chat.question audit record', async () => {
    const question = `When does the ${WORD} ferry leave?`;
    const events = await chat(alice.token, { prompt: question, collection_id: [collection] });
    const done = events.find((e) => e.event === 'done')?.data as { usage?: Amounts } | undefined;
    expect(done, JSON.stringify(events)).toBeDefined();
    const [row] = await settledRows(alice.id, 1);
    expect(row).toMatchObject({ key_id: NO_ID, collection_id: collection, questions: 1 });
    // The offline model reports its counts the OpenAI way; the stored ones are what it told.
    // The question was embedded twice: by knowledge for the search (its tokens told back over
    // RPC) and by chat for the official-answer lookup; each as the model counts it.
    const tokens = await embeddingTokens(question);
    expect(tokens).toBeGreaterThan(0);
    expect(Number(row!.embedding_tokens)).toBe(2 * tokens);
    expect(Number(row!.prompt_tokens)).toBe(done!.usage!.prompt_tokens);
    expect(Number(row!.completion_tokens)).toBe(done!.usage!.completion_tokens);

    const audit = await queryRows<{
      actor_id: string;
      detail: { question: string; files: { name: string }[]; status: string };
    }>(
      sql`select actor_id::text, detail from audit_events
          where action = 'chat.question' and detail->>'question' = ${question}`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: alice.id, detail: { status: 'complete' } });
    expect(audit[0]!.detail.files.map((f) => f.name)).toEqual(['ferry.pdf']);
  });

  it('for the OpenAI door with an API key: under the key, streamed or not', async () => {
    const before = (await rowsOf(alice.id)).reduce((n, r) => n + r.questions, 0);
    const model = `kbchat-collections:${collection}`;
    const plain = await door(key.key, {
      model,
      messages: [{ role: 'user', content: `At what hour does the ${WORD} ferry leave?` }],
    });
    expect(plain.status, await plain.clone().text()).toBe(200);
    const completion = await plain.json<{ usage: { prompt_tokens: number } }>();
    expect(completion.usage.prompt_tokens).toBeGreaterThan(0);
    const streamed = await door(key.key, {
      model,
      stream: true,
      messages: [{ role: 'user', content: `Does the ${WORD} ferry run all year?` }],
    });
    expect(streamed.status).toBe(200);
    await streamed.text();
    const rows = await settledRows(alice.id, before + 2);
    const byKey = rows.find((r) => r.key_id === key.id);
    expect(byKey).toMatchObject({ collection_id: collection, questions: 2 });
    expect(Number(byKey!.embedding_tokens)).toBeGreaterThan(0);
    expect(Number(byKey!.prompt_tokens)).toBeGreaterThan(0);
    expect(Number(byKey!.completion_tokens)).toBeGreaterThan(0);
  });

  it('counts no embedding when none was made (a chat over a whole small file): nothing is estimated', async () => {
    const before = (await rowsOf(alice.id)).find((r) => r.key_id === NO_ID)!;
    const question = `Which ${WORD} ferry leaves at seven?`;
    const events = await chat(alice.token, { prompt: question, file_id: [fileId] });
    expect(events.some((e) => e.event === 'done')).toBe(true);
    const rows = await settledRows(alice.id, 4);
    const embedded = await fetch(`${stack.modelControlUrl}/requests?path=/v1/embeddings`);
    const asked = (await embedded.json<{ body: { input: unknown } }[]>()).filter((r) =>
      JSON.stringify(r.body.input).includes(question),
    );
    // The file's whole text fits the prompt: knowledge does not embed the question.
    expect(asked).toHaveLength(0);
    const after = rows.find((r) => r.key_id === NO_ID)!;
    expect(after.questions).toBe(2);
    expect(after.embedding_tokens).toBe(before.embedding_tokens);
    expect(Number(after.prompt_tokens)).toBeGreaterThan(Number(before.prompt_tokens));
  });

  it('GET usage answers the caller’s own, by key with its name and by collection with its name', async () => {
    const mine = await data<Report>(await call('/modulechat/usage', { token: alice.token }));
    expect(mine.totals.questions).toBe(4);
    expect(mine.days).toHaveLength(30);
    expect(mine.today.questions).toBe(4);
    expect(mine.today.total_tokens).toBe(mine.totals.total_tokens);
    expect(Date.parse(mine.today.resets_at)).toBeGreaterThan(Date.now());
    expect(mine.by_key).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key_id: key.id, key_name: `script ${TAG}`, questions: 2 }),
        expect.objectContaining({ key_id: null, key_name: null, questions: 2 }),
      ]),
    );
    expect(mine.by_collection).toEqual([
      expect.objectContaining({
        collection_id: collection,
        collection_name: `Usage ${TAG}`,
        questions: 4,
      }),
    ]);
    // Bob has asked nothing: he sees none of Alice's.
    const his = await data<Report>(await call('/modulechat/usage', { token: bob.token }));
    expect(his.totals.questions).toBe(0);
    expect(his.by_key).toEqual([]);
    // The admin sees everyone's in usage_all, and only their own in usage.
    const own = await data<Report>(await call('/modulechat/usage', { token: admin }));
    expect(own.by_collection.some((c) => c.collection_id === collection)).toBe(false);
    const all = await data<{ by_user: { user_id: string; username: string; questions: number }[] }>(
      await call('/modulechat/usage_all', { token: admin }),
    );
    expect(all.by_user).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: alice.id, username: alice.username, questions: 4 }),
      ]),
    );
  });

  it('the shared collection’s usage is its own, apart from usage counted under no collection', async () => {
    const carol = await userWithToken();
    try {
      // Asked of the shared collection, whose id is the nil UUID: counted under it.
      await chat(carol.token, {
        prompt: `What does the ${WORD} handbook say about ferries?`,
        collection_id: [NO_ID],
      });
      // Asked of the whole base and refused (nothing found): counted under no collection.
      await chat(carol.token, { prompt: `Qwzxv ${TAG} plorbic zintral?` });
      const rows = await settledRows(carol.id, 2);
      expect(rows.map((r) => r.collection_id).sort()).toEqual([
        NO_ID,
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
      ]);
      const report = await data<Report>(await call('/modulechat/usage', { token: carol.token }));
      expect(report.by_collection).toHaveLength(2);
      expect(report.by_collection).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            collection_id: NO_ID,
            collection_name: expect.stringMatching(/.+/),
            questions: 1,
          }),
          expect.objectContaining({ collection_id: null, collection_name: null, questions: 1 }),
        ]),
      );
    } finally {
      await deleteUser(carol.id);
    }
  });

  it('refuses a period that runs backwards or longer than a year', async () => {
    await expectProblem(
      await call('/modulechat/usage?from=2026-02-01&to=2026-01-01', { token: alice.token }),
      [400],
      ['validation_failed'],
    );
    await expectProblem(
      await call('/modulechat/usage?from=2020-01-01&to=2026-01-01', { token: alice.token }),
      [400],
      ['validation_failed'],
    );
  });
});

describe('limits', () => {
  it('are read and set by super admins only, and a change is in the audit trail', async () => {
    for (const res of [
      await call('/modulechat/limits', { token: bob.token }),
      await putLimits(bob.token, { ...NO_LIMITS, user_daily_questions: 1000 }),
      await call('/modulechat/usage_all', { token: bob.token }),
    ]) {
      expect(await refusal(res)).toEqual(ACCESS_DENIED);
    }
    expect(await data<Limits>(await call('/modulechat/limits', { token: admin }))).toEqual(
      NO_LIMITS,
    );
    const set = { ...NO_LIMITS, collection_max_bytes: 10_000_000_000, audit_retention_days: 400 };
    expect(await data<Limits>(await putLimits(admin, set))).toEqual(set);
    expect(await data<Limits>(await call('/modulechat/limits', { token: admin }))).toEqual(set);
    const records = await queryRows<{ detail: { before: Limits; after: Limits } }>(
      sql`select detail from audit_events where action = 'chat.limits_update' order by id desc limit 1`,
    );
    expect(records[0]!.detail).toEqual({ before: NO_LIMITS, after: set });
    await expectProblem(
      await putLimits(admin, { ...set, user_daily_questions: 0 }),
      [400],
      ['validation_failed'],
    );
    await data(await putLimits(admin, NO_LIMITS));
  });

  it('a user over the question limit gets 429 with resets_at, in their language, and the chat model is not asked', async () => {
    await data(await putLimits(admin, { ...NO_LIMITS, user_daily_questions: 4 }));
    const question = `${WORD} 渡轮几点出发？`;
    const res = await chatRequest(alice.token, { prompt: question });
    const body = (await limitProblem(res, 429, 'quota_exceeded')) as {
      resets_at: string;
      limit: string;
      detail: string;
    };
    expect(body.limit).toBe('user_daily_questions');
    expect(body.detail).toMatch(/上限/);
    const resets = new Date(body.resets_at);
    expect(resets.getUTCHours()).toBe(0);
    expect(resets.getTime()).toBeGreaterThan(Date.now());
    expect(resets.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);

    // A follow-up in a stored conversation too (the check rides in its first batch).
    const [conversation] = await queryRows<{ conversation_id: string }>(
      sql`select m.conversation_id::text from messages m join conversations c on c.id = m.conversation_id
          where c.user_id = ${alice.id}::uuid limit 1`,
    );
    const followUp = `And on Sundays, ${WORD}?`;
    await limitProblem(
      await chatRequest(alice.token, {
        prompt: followUp,
        conversation_id: conversation!.conversation_id,
      }),
      429,
      'quota_exceeded',
    );
    // The door, in OpenAI's error shape.
    const refused = await door(key.key, {
      model: 'kbchat',
      messages: [{ role: 'user', content: `Who runs the ${WORD} ferry?` }],
    });
    expect(refused.status).toBe(429);
    const openAi = await refused.json<{ error: { type: string; code: string } }>();
    expect(openAi.error).toMatchObject({ type: 'rate_limit_error', code: 'quota_exceeded' });
    // A follow-up through the door: its rewrite is a model call, so the check is settled first.
    const doorFollowUp = `And who owns the ${WORD} ferry now?`;
    const refusedFollowUp = await door(key.key, {
      model: 'kbchat',
      messages: [
        { role: 'user', content: `Who runs the ${WORD} ferry?` },
        { role: 'assistant', content: 'The harbour board runs it.' },
        { role: 'user', content: doorFollowUp },
      ],
    });
    expect(refusedFollowUp.status).toBe(429);

    // Nothing was asked of the chat model, nothing stored, nothing counted.
    for (const text of [question, followUp, `Who runs the ${WORD} ferry?`, doorFollowUp]) {
      expect(await completionsMentioning(text)).toBe(0);
    }
    const stored = await queryRows(sql`select 1 from messages where question = ${question}`);
    expect(stored).toEqual([]);
    expect((await rowsOf(alice.id)).reduce((n, r) => n + r.questions, 0)).toBe(4);

    // Bob, under the limit, is answered.
    const answered = await chat(bob.token, { prompt: `When does the ${WORD} ferry leave?` });
    // (His question finds nothing he may read: a refusal of the answer, not of the asker.)
    expect(answered.some((e) => e.event === 'conversation')).toBe(true);
    expect(answered.some((e) => e.data.code === 'quota_exceeded')).toBe(false);
    await data(await putLimits(admin, NO_LIMITS));
  });

  it('questions asked at once pass the question limit no more often than it allows', async () => {
    // The check admits a question by counting it at once (usage_admitted), not when its usage
    // is written after the answer: before, all of these passed a check that read the count.
    const carol = await userWithToken();
    const carolKey = await data<{ key: string }>(
      await call('/moduleauth/api_key', { token: carol.token, json: { name: `at once ${TAG}` } }),
    );
    try {
      await data(await putLimits(admin, { ...NO_LIMITS, user_daily_questions: 2 }));
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          door(carolKey.key, {
            model: 'kbchat',
            messages: [{ role: 'user', content: `Does the ${WORD} ferry run on day ${i}?` }],
          }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      await Promise.all(answers.map((res) => res.body?.cancel()));
      expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
      // The two admitted are today's count (per UTC day), whatever became of them.
      const [admitted] = await queryRows<{ questions: number }>(
        sql`select questions from usage_admitted where user_id = ${carol.id}::uuid
            and day = (now() at time zone 'UTC')::date`,
      );
      expect(admitted!.questions).toBe(2);
    } finally {
      await data(await putLimits(admin, NO_LIMITS));
      await deleteUser(carol.id);
    }
  });

  it('the token limit refuses once the day’s tokens reach it', async () => {
    await data(await putLimits(admin, { ...NO_LIMITS, user_daily_tokens: 1 }));
    const problem = await limitProblem(
      await chatRequest(alice.token, { prompt: `Is the ${WORD} ferry late?` }),
      429,
      'quota_exceeded',
    );
    expect(problem.limit).toBe('user_daily_tokens');
    await data(await putLimits(admin, NO_LIMITS));
  });

  it('a collection at its file limit refuses an upload, keeping nothing', async () => {
    await data(await putLimits(admin, { ...NO_LIMITS, collection_max_files: 1 }));
    const keysBefore = (await bucketKeys()).length;
    const form = new FormData();
    form.append('file', new File([makeTextPdf([`A second ${WORD} timetable.`])], 'second.pdf'));
    form.append('collection_id', collection);
    const problem = await limitProblem(
      await call('/moduleknowledge/upload', { token: alice.token, body: form }),
      413,
      'collection_limit_reached',
    );
    expect(problem).toMatchObject({ limit: 'collection_max_files', used: 1, allowed: 1 });
    const files = await queryRows(
      sql`select 1 from files where collection_id = ${collection}::uuid and name = 'second.pdf'`,
    );
    expect(files).toEqual([]);
    expect((await bucketKeys()).length).toBe(keysBefore);

    // The byte limit too.
    await data(await putLimits(admin, { ...NO_LIMITS, collection_max_bytes: 10 }));
    const bytes = await limitProblem(
      await call('/moduleknowledge/upload', { token: alice.token, body: form }),
      413,
      'collection_limit_reached',
    );
    expect(bytes.limit).toBe('collection_max_bytes');
    expect((await bucketKeys()).length).toBe(keysBefore);
    await data(await putLimits(admin, NO_LIMITS));
  });

  it('a user at their storage limit is refused an upload in any collection, keeping nothing; others upload', async () => {
    const stored = async (userId: string) =>
      Number(
        (
          await queryRows<{ bytes: string }>(
            sql`select coalesce(sum(size), 0)::text as bytes from files where uploader_id = ${userId}::uuid`,
          )
        )[0]!.bytes,
      );
    const upload = (token: string, name: string, into?: string) => {
      const form = new FormData();
      form.append('file', new File([makeTextPdf([`A ${WORD} ${name} notice.`])], name));
      if (into) form.append('collection_id', into);
      return call('/moduleknowledge/upload', { token, body: form });
    };
    // A fresh collection of her own: no collection limit is near, only her own bytes count.
    const another = await data<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: alice.token,
        json: { name: `Usage storage ${TAG}` },
      }),
    );
    const used = await stored(alice.id);
    expect(used).toBeGreaterThan(0);
    await data(await putLimits(admin, { ...NO_LIMITS, user_max_bytes: used + 10 }));
    const keysBefore = (await bucketKeys()).length;
    const problem = await limitProblem(
      await upload(alice.token, 'storage.pdf', another.id),
      413,
      'storage_limit_reached',
    );
    expect(problem).toMatchObject({ limit: 'user_max_bytes', used, allowed: used + 10 });
    // Her usage tells her as much: her bytes against her limit (the same count).
    const usage = await data<Report>(await call('/modulechat/usage', { token: alice.token }));
    expect(usage.storage).toEqual({ bytes: used, limit: used + 10 });
    expect(await stored(alice.id)).toBe(used);
    expect((await bucketKeys()).length).toBe(keysBefore);
    // Bob's bytes are his own: he uploads, and his usage counts his file only.
    const bobBefore = await stored(bob.id);
    expect((await upload(bob.token, 'bob.pdf')).status).toBe(200);
    const his = await data<Report>(await call('/modulechat/usage', { token: bob.token }));
    expect(his.storage.bytes).toBe(await stored(bob.id));
    expect(his.storage.bytes).toBeGreaterThan(bobBefore);
    // A PUT written before the limit existed (it leaves it out) leaves it as it is.
    const older: Partial<Limits> = { ...NO_LIMITS };
    delete older.user_max_bytes;
    const kept = await data<Limits>(
      await putLimits(admin, { ...older, audit_retention_days: 400 }),
    );
    expect(kept).toMatchObject({ user_max_bytes: used + 10, audit_retention_days: 400 });
    // Raised, she uploads again.
    await data(await putLimits(admin, { ...NO_LIMITS, user_max_bytes: used + 10_000_000 }));
    expect((await upload(alice.token, 'storage.pdf', another.id)).status).toBe(200);
    await data(await putLimits(admin, NO_LIMITS));
  });

  it('a file moved into a collection at its limit is refused and stays where it was, with no move recorded', async () => {
    const elsewhere = await data<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: alice.token,
        json: { name: `Usage elsewhere ${TAG}` },
      }),
    );
    const form = new FormData();
    form.append('file', new File([makeTextPdf([`A ${WORD} harbour map.`])], 'map.pdf'));
    form.append('collection_id', elsewhere.id);
    const moving = await data<{ id: string }>(
      await call('/moduleknowledge/upload', { token: alice.token, body: form }),
    );
    const move = () =>
      call('/moduleknowledge/file_move', {
        token: alice.token,
        json: { id: moving.id, collection_id: collection },
      });
    const whereIs = async () =>
      (
        await queryRows<{ collection_id: string }>(
          sql`select collection_id::text from files where id = ${moving.id}::uuid`,
        )
      )[0]!.collection_id;
    const moves = async () =>
      (
        await queryRows(
          sql`select 1 from audit_events where action = 'knowledge.move' and object_id = ${moving.id}`,
        )
      ).length;

    await data(await putLimits(admin, { ...NO_LIMITS, collection_max_files: 1 }));
    const files = await limitProblem(await move(), 413, 'collection_limit_reached');
    expect(files).toMatchObject({ limit: 'collection_max_files', used: 1, allowed: 1 });
    expect(await whereIs()).toBe(elsewhere.id);

    await data(await putLimits(admin, { ...NO_LIMITS, collection_max_bytes: 10 }));
    const bytes = await limitProblem(await move(), 413, 'collection_limit_reached');
    expect(bytes.limit).toBe('collection_max_bytes');
    expect(await whereIs()).toBe(elsewhere.id);
    expect(await moves()).toBe(0);

    // Within the limits it moves (and back out of a collection at its limit).
    await data(await putLimits(admin, { ...NO_LIMITS, collection_max_files: 2 }));
    expect((await data<{ collection: { id: string } }>(await move())).collection.id).toBe(
      collection,
    );
    expect(await whereIs()).toBe(collection);
    expect(await moves()).toBe(1);
    await data(await putLimits(admin, { ...NO_LIMITS, collection_max_files: 1 }));
    await data(
      await call('/moduleknowledge/file_move', {
        token: alice.token,
        json: { id: moving.id, collection_id: elsewhere.id },
      }),
    );
    await data(await putLimits(admin, NO_LIMITS));
  });
});

describe('MCP search', () => {
  /** Alice's usage row of today under her API key and the collection. */
  const keyRow = async () =>
    (await rowsOf(alice.id)).find((r) => r.key_id === key.id && r.collection_id === collection);

  it('counts its embedding tokens, and no question, under the user, the key and the collection searched', async () => {
    const client = await mcpClient(key.key);
    const before = await keyRow();
    const question = `Which ${WORD} ferry runs in winter?`;
    const found = await callTool<{ passages: { file_id: string }[] }>(client, 'search', {
      question,
      collection,
    });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent.passages.map((p) => p.file_id)).toContain(fileId);
    // Knowledge embedded the question once; those tokens are the search's whole cost.
    const tokens = await embeddingTokens(question);
    await expect
      .poll(async () => Number((await keyRow())?.embedding_tokens ?? 0), { timeout: 10_000 })
      .toBe(Number(before?.embedding_tokens ?? 0) + tokens);
    expect(await keyRow()).toMatchObject({
      questions: before?.questions ?? 0,
      prompt_tokens: before?.prompt_tokens ?? '0',
      completion_tokens: before?.completion_tokens ?? '0',
    });
    await client.close();
  });

  it('over the daily token limit: the 429 quota refusal as a tool error, no passages, nothing counted; the question limit does not stop it', async () => {
    const client = await mcpClient(key.key);
    const before = await keyRow();
    await data(await putLimits(admin, { ...NO_LIMITS, user_daily_tokens: 1 }));
    const refused = await callTool<ToolError & { error: { resets_at: string; limit: string } }>(
      client,
      'search',
      { question: `Is the ${WORD} ferry on time today?`, collection },
    );
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({
      status: 429,
      code: 'quota_exceeded',
      limit: 'user_daily_tokens',
    });
    expect(Date.parse(refused.structuredContent.error.resets_at)).toBeGreaterThan(Date.now());
    expect(refused.structuredContent).not.toHaveProperty('passages');

    // A search is not a question: at the day's question limit, with tokens left, it is answered.
    const questions = (await rowsOf(alice.id)).reduce((n, r) => n + r.questions, 0);
    await data(await putLimits(admin, { ...NO_LIMITS, user_daily_questions: questions }));
    const question = `Does the ${WORD} ferry leave at seven in spring?`;
    const answered = await callTool<{ passages: unknown[] }>(client, 'search', {
      question,
      collection,
    });
    expect(answered.isError, JSON.stringify(answered.content)).toBeFalsy();
    expect(answered.structuredContent.passages.length).toBeGreaterThan(0);
    // Only the answered search was counted.
    await expect
      .poll(async () => Number((await keyRow())?.embedding_tokens ?? 0), { timeout: 10_000 })
      .toBe(Number(before?.embedding_tokens ?? 0) + (await embeddingTokens(question)));
    await data(await putLimits(admin, NO_LIMITS));
    await client.close();
  });
});

describe('knowledge’s own search routes', () => {
  /** Alice's usage row of today under `keyId` and the collection. */
  const rowUnder = async (keyId: string) =>
    (await rowsOf(alice.id)).find((r) => r.key_id === keyId && r.collection_id === collection);
  const tokensUnder = async (keyId: string) =>
    Number((await rowUnder(keyId))?.embedding_tokens ?? 0);
  const search = (token: string, text: string) =>
    call(
      `/moduleknowledge/query?${new URLSearchParams({ text, collection_id: collection, top: '3' })}`,
      { token },
    );

  it('GET /moduleknowledge/query counts its embedding tokens, and no question, under the user, the key and the collection', async () => {
    const before = { key: await tokensUnder(key.id), login: await tokensUnder(NO_ID) };
    const questions = (await rowsOf(alice.id)).reduce((n, r) => n + r.questions, 0);
    const byKey = `When does the ${WORD} ferry leave on Sundays?`;
    const byLogin = `Does the ${WORD} ferry run at night?`;
    const found = await data<{ file_id: string }[]>(await search(key.key, byKey));
    expect(found.map((r) => r.file_id)).toContain(fileId);
    await data(await search(alice.token, byLogin));
    await expect
      .poll(async () => [await tokensUnder(key.id), await tokensUnder(NO_ID)], { timeout: 10_000 })
      .toEqual([
        before.key + (await embeddingTokens(byKey)),
        before.login + (await embeddingTokens(byLogin)),
      ]);
    expect((await rowsOf(alice.id)).reduce((n, r) => n + r.questions, 0)).toBe(questions);
  });

  // With a login token: its check always runs. (A key's call skips it while the limits
  // knowledge's isolate last read, up to 10 seconds ago, say none applies: known-limits.ts.)
  it('over the daily token limit: 429 with resets_at and Retry-After, in the language searched, nothing counted', async () => {
    const before = await tokensUnder(NO_ID);
    await data(await putLimits(admin, { ...NO_LIMITS, user_daily_tokens: 1 }));
    try {
      const refused = await search(alice.token, `${WORD} 渡轮几点出发？`);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const problem = await limitProblem(refused, 429, 'quota_exceeded');
      expect(problem).toMatchObject({ limit: 'user_daily_tokens' });
      expect(problem.detail).toMatch(/\p{Script=Han}/u);
      expect(Date.parse(problem.resets_at as string)).toBeGreaterThan(Date.now());
      // Knowledge now knows a limit applies (its check read them): the next refusal comes before
      // the model is asked, and no embedding of its text is made.
      const unasked = `${WORD} 渡轮末班几点？`;
      expect((await search(alice.token, unasked)).status).toBe(429);
      expect(await embeddingsMentioning(unasked)).toBe(0);
      // A run of the collection's saved questions is refused alike.
      const saved = await call('/moduleknowledge/retrieval_test', {
        token: alice.token,
        json: {
          collection_id: collection,
          question: `When does the ${WORD} ferry leave?`,
          file_id: fileId,
        },
      });
      expect(saved.status, await saved.clone().text()).toBe(200);
      await limitProblem(
        await call('/moduleknowledge/retrieval_test_run', {
          token: alice.token,
          json: { collection_id: collection },
        }),
        429,
        'quota_exceeded',
      );
      // The chosen file's text for a chat: whole, it costs no tokens and is given; too long
      // for `max_chars`, the question is embedded to choose its pages, and that is refused.
      const context = (maxChars: number) =>
        call(
          `/moduleknowledge/context?${new URLSearchParams({ text: `${WORD} 渡轮`, file_id: fileId, max_chars: String(maxChars), top: '3' })}`,
          { token: alice.token },
        );
      expect(await data<{ mode: string }>(await context(100_000))).toMatchObject({ mode: 'full' });
      await limitProblem(await context(10), 429, 'quota_exceeded');
    } finally {
      await data(await putLimits(admin, NO_LIMITS));
    }
    // Let anything recorded in the background land before reading the row.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await tokensUnder(NO_ID)).toBe(before);
  });

  it('a retrieval test run counts every saved question’s embedding under the collection run', async () => {
    const before = await tokensUnder(key.id);
    const run = await data<{ cases: { question: string }[] }>(
      await call('/moduleknowledge/retrieval_test_run', {
        token: key.key,
        json: { collection_id: collection },
      }),
    );
    expect(run.cases.length).toBeGreaterThan(0);
    let spent = 0;
    for (const { question } of run.cases) spent += await embeddingTokens(question);
    await expect.poll(() => tokensUnder(key.id), { timeout: 10_000 }).toBe(before + spent);
  });
});
