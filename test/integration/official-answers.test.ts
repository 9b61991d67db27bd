import OpenAI from 'openai';
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { readSse } from '#shared/service';
import { sql } from 'drizzle-orm';
import { EMBEDDING_COLUMN_DIMENSIONS } from '#shared/model/embedding-width';
import { call, createUser, tokenFor, type TestUser } from '../helpers/auth';
import { queryRows, withDb } from '../helpers/database';

// Official answers (标准口径): written by a collection's owners, given as written to a question
// similar enough (no model call), else to the model as its first context item; readers of other
// collections never get them. The offline model's embeddings are lexical and deterministic, so
// the same question is similarity 1 and a reworded one lands between chat's threshold (0.5)
// and the default official one (0.9). No model controls are changed here: the model's recorded
// requests are only read, and told apart by this file's own words.

const stack = inject('stack');
const TAG = crypto.randomUUID().slice(0, 8);
const WORD = `Zentrovia${TAG}`;
const QUESTION = `How many vacation days does a ${WORD} clerk get each year?`;
const REWORDED = `${WORD} clerk vacation days after ten years of service in the northern office archive`;
const ANSWER = `A ${WORD} clerk gets 25 vacation days a year, and 30 after ten years of service.`;

/** A model this service never configures: what a vector made before a change of model says. */
const RETIRED_MODEL = 'retired-embedding-model@768';

type Event = { event: string; data: Record<string, unknown> };
type Recorded = { path: string; body: Record<string, unknown> };

let owner: TestUser & { token: string };
let reader: TestUser & { token: string };
let outsider: TestUser & { token: string };
let collection = '';
let otherCollection = '';
let chunk = 0;
let outsiderChunk = 0;
let officialId = '';

const data = async <T>(res: Response): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: T }>()).data;
};

async function userWithToken() {
  const user = await createUser();
  return { ...user, token: await tokenFor(user.username, user.password) };
}

async function upload(token: string, into: string, pages: string[], name: string) {
  const form = new FormData();
  form.append('file', new File([makeTextPdf(pages)], name));
  form.append('collection_id', into);
  const file = await data<{ id: string }>(
    await call('/moduleknowledge/upload', { token, body: form }),
  );
  const hits = await data<{ id: number; file_id: string }[]>(
    await call(
      `/moduleknowledge/query?${new URLSearchParams({ text: pages[0]!, top: '1', file_id: file.id })}`,
      {
        token,
      },
    ),
  );
  return hits[0]!.id;
}

const postOfficial = (token: string, body: Record<string, unknown>) =>
  call('/modulechat/official_answer', { token, json: body });

async function chat(token: string, body: Record<string, unknown>): Promise<Event[]> {
  const res = await exports.default.fetch(
    new Request('http://kb.test/modulechat/chat', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }),
  );
  expect(res.status).toBe(200);
  const out: Event[] = [];
  for await (const { event, data: text } of readSse(res.body!)) {
    out.push({ event, data: JSON.parse(text) as Record<string, unknown> });
  }
  return out;
}

const doneOf = (events: Event[]) => events.find((e) => e.event === 'done')?.data;
const contentOf = (events: Event[]) =>
  events
    .filter((e) => e.event === 'message' && e.data.type === 'content')
    .map((e) => e.data.content as string);

/** The official answer's model, and how close its vector is to one pointing elsewhere. */
async function officialRow() {
  const [row] = await queryRows<{ embedding_model: string; similarity_to_elsewhere: number }>(
    sql`select embedding_model,
      1 - (embedding <=> ${`[1${',0'.repeat(EMBEDDING_COLUMN_DIMENSIONS - 1)}]`}::vector) as similarity_to_elsewhere
      from official_answers where id = ${officialId}`,
  );
  return row!;
}

/** The chat completions the offline model was asked that mention `text` (other files' requests are not ours). */
async function completionsMentioning(text: string): Promise<Recorded[]> {
  const res = await fetch(`${stack.modelControlUrl}/requests`);
  const all = await res.json<Recorded[]>();
  return all.filter(
    (r) => r.path === '/v1/chat/completions' && JSON.stringify(r.body).includes(text),
  );
}

beforeAll(async () => {
  [owner, reader, outsider] = await Promise.all([
    userWithToken(),
    userWithToken(),
    userWithToken(),
  ]);
  collection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: owner.token,
        json: { name: `Official ${TAG}` },
      }),
    )
  ).id;
  otherCollection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: outsider.token,
        json: { name: `Other ${TAG}` },
      }),
    )
  ).id;
  await data(
    await call('/moduleknowledge/collection_member', {
      token: owner.token,
      json: { collection_id: collection, username: reader.username, role: 'viewer' },
    }),
  );
  chunk = await upload(
    owner.token,
    collection,
    [
      `${WORD} leave rules. A clerk gets 25 vacation days a year; after ten years of service, 30 vacation days.`,
    ],
    'leave.pdf',
  );
  outsiderChunk = await upload(
    outsider.token,
    otherCollection,
    [`Outsider notes ${TAG}: nothing to see.`],
    'other.pdf',
  );
});

describe('writing official answers', () => {
  it('an owner writes one with its citations resolved through knowledge', async () => {
    const written = await data<{
      id: string;
      collection_id: string;
      question: string;
      citations: {
        chunk_id: number;
        file_name: string;
        collection_id: string;
        collection_name: string;
        page: number;
      }[];
      created_by: string;
      updated_by: string;
    }>(
      await postOfficial(owner.token, {
        collection_id: collection,
        question: QUESTION,
        answer: ANSWER,
        citations: [chunk],
      }),
    );
    officialId = written.id;
    expect(written).toMatchObject({
      collection_id: collection,
      question: QUESTION,
      created_by: owner.username,
      updated_by: owner.username,
    });
    expect(written.citations).toEqual([
      expect.objectContaining({
        chunk_id: chunk,
        file_name: 'leave.pdf',
        collection_id: collection,
        collection_name: `Official ${TAG}`,
        page: 1,
      }),
    ]);
    const listed = await data<{ id: string }[]>(
      await call(`/modulechat/official_answers?collection_id=${collection}`, {
        token: reader.token,
      }),
    );
    expect(listed.map((a) => a.id)).toEqual([officialId]);
  });

  it('a reader may not write (403), an outsider sees no collection (404), an unreadable citation is 404', async () => {
    const body = { collection_id: collection, question: 'q', answer: 'a' };
    expect((await postOfficial(reader.token, body)).status).toBe(403);
    expect((await postOfficial(outsider.token, body)).status).toBe(404);
    expect(
      (
        await call(`/modulechat/official_answers?collection_id=${collection}`, {
          token: outsider.token,
        })
      ).status,
    ).toBe(404);
    // The owner cannot read the outsider's passage: nothing is written.
    const refused = await postOfficial(owner.token, {
      ...body,
      question: `Unreadable ${TAG}`,
      citations: [outsiderChunk],
    });
    expect(refused.status).toBe(404);
    const listed = await data<{ question: string }[]>(
      await call(`/modulechat/official_answers?collection_id=${collection}`, {
        token: owner.token,
      }),
    );
    expect(listed.map((a) => a.question)).toEqual([QUESTION]);
    expect(
      (
        await call(`/modulechat/official_answer?id=${officialId}`, {
          method: 'DELETE',
          token: reader.token,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(`/modulechat/official_answer?id=${officialId}`, {
          method: 'DELETE',
          token: outsider.token,
        })
      ).status,
    ).toBe(404);
  });
});

describe('answering with official answers', () => {
  it('the same question gets the answer as written, with no model call, and the turn is stored', async () => {
    const events = await chat(reader.token, { prompt: QUESTION, collection_id: [collection] });
    expect(events.map((e) => e.event)).toEqual(['conversation', 'message', 'sources', 'done']);
    expect(contentOf(events)).toEqual([ANSWER]);
    expect(events.find((e) => e.event === 'sources')!.data).toEqual([
      expect.objectContaining({ chunk_id: chunk, file_name: 'leave.pdf', citation: 1 }),
    ]);
    const done = doneOf(events)!;
    expect(done.mode).toBe('official');
    expect(done.official).toMatchObject({ id: officialId, question: QUESTION });
    expect((done.official as { similarity: number }).similarity).toBeGreaterThan(0.99);
    expect(await completionsMentioning(QUESTION)).toEqual([]);

    const conversationId = events[0]!.data.conversation_id as string;
    let messages: { mode: string | null; answer: string; model: string | null }[] = [];
    for (let tries = 0; tries < 100 && messages.length === 0; tries++) {
      const res = await call(`/modulechat/conversation?id=${conversationId}`, {
        token: reader.token,
      });
      if (res.status === 200) messages = (await data<{ messages: typeof messages }>(res)).messages;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(messages).toEqual([
      expect.objectContaining({ mode: 'official', answer: ANSWER, model: null }),
    ]);
  });

  it('below the threshold the model gets it as its first context item', async () => {
    const events = await chat(reader.token, { prompt: REWORDED, collection_id: [collection] });
    const done = doneOf(events)!;
    expect(done.mode).toBe('retrieval');
    const [echo] = contentOf(events);
    expect(echo).toContain('标准口径 official answer');
    expect(echo!.indexOf(ANSWER)).toBeGreaterThan(-1);
    expect(echo!.indexOf(ANSWER)).toBeLessThan(echo!.indexOf('[1]'));
    const asked = await completionsMentioning(REWORDED);
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0]!.body)).toContain(ANSWER);
  });

  it('the collection’s threshold decides: lowered, the reworded question gets it as written', async () => {
    expect(
      (
        await call('/modulechat/answer_settings', {
          method: 'PUT',
          token: reader.token,
          json: { collection_id: collection, official_threshold: 0.5 },
        })
      ).status,
    ).toBe(403);
    const set = await data<{ official_threshold: number; min_similarity: number }>(
      await call('/modulechat/answer_settings', {
        method: 'PUT',
        token: owner.token,
        json: { collection_id: collection, official_threshold: 0.5 },
      }),
    );
    expect(set).toEqual({
      collection_id: collection,
      official_threshold: 0.5,
      min_similarity: 0.5,
    });
    try {
      const events = await chat(reader.token, { prompt: REWORDED, collection_id: [collection] });
      const done = doneOf(events)!;
      expect(done.mode).toBe('official');
      expect((done.official as { similarity: number }).similarity).toBeLessThan(0.9);
    } finally {
      await data(
        await call('/modulechat/answer_settings', {
          method: 'PUT',
          token: owner.token,
          json: { collection_id: collection, official_threshold: 0.9 },
        }),
      );
    }
    const read = await data<{ official_threshold: number }>(
      await call(`/modulechat/answer_settings?collection_id=${collection}`, {
        token: reader.token,
      }),
    );
    expect(read.official_threshold).toBeCloseTo(0.9);
  });

  it('a user who cannot read the collection never gets it', async () => {
    const events = await chat(outsider.token, { prompt: QUESTION });
    expect(doneOf(events)?.mode).not.toBe('official');
    expect(contentOf(events).join('')).not.toContain(ANSWER);
  });

  it('the OpenAI door returns it as written, with its sources', async () => {
    const login = await call('/moduleauth/api_key', {
      token: reader.token,
      json: { name: 'official' },
    });
    const { key } = await data<{ key: string }>(login);
    const client = new OpenAI({
      baseURL: 'http://kb.test/modulechat/v1',
      apiKey: key,
      maxRetries: 0,
      fetch: (url, init) => exports.default.fetch(new Request(url, init)),
    });
    const before = (await completionsMentioning(QUESTION)).length;
    const completion = await client.chat.completions.create({
      model: `kbchat-collections:${collection}`,
      messages: [{ role: 'user', content: QUESTION }],
    });
    expect(completion.choices[0]!.message.content).toBe(ANSWER);
    const sources = (completion as unknown as { sources: { chunk_id: number; citation: number }[] })
      .sources;
    expect(sources).toEqual([expect.objectContaining({ chunk_id: chunk, citation: 1 })]);
    // Marked as the collection's official answer, as the SSE chat's `done` marks it.
    const marked = (completion as unknown as { kbchat_official?: Record<string, unknown> })
      .kbchat_official;
    expect(marked).toEqual({ id: officialId, question: QUESTION, similarity: expect.any(Number) });
    expect(marked!.similarity).toBeGreaterThanOrEqual(0.9);
    // Streamed, on the last chunk.
    const stream = await client.chat.completions.create({
      model: `kbchat-collections:${collection}`,
      messages: [{ role: 'user', content: QUESTION }],
      stream: true,
    });
    const ends: unknown[] = [];
    for await (const part of stream) {
      const official = (part as unknown as { kbchat_official?: unknown }).kbchat_official;
      if (official) ends.push(official);
    }
    expect(ends).toEqual([marked]);
    expect((await completionsMentioning(QUESTION)).length).toBe(before);
  });

  it('after a change of embedding model it is embedded again by the model now configured, and given again', async () => {
    // As a change of model leaves it: its question's vector made by another model (here one
    // that points elsewhere), which search never compares with the configured model's.
    const elsewhere = `[1${',0'.repeat(EMBEDDING_COLUMN_DIMENSIONS - 1)}]`;
    const modelNow = (await officialRow()).embedding_model;
    await queryRows(sql`update official_answers
      set embedding_model = ${RETIRED_MODEL}, embedding = ${elsewhere}::vector
      where id = ${officialId}`);

    // The first question that meets it is answered without it (from the passages), and starts
    // its re-embedding after the answer; the asker, a reader, may not write official answers.
    const first = await chat(reader.token, { prompt: QUESTION, collection_id: [collection] });
    expect(doneOf(first)?.mode).not.toBe('official');
    let row = await officialRow();
    for (let tries = 0; tries < 100 && row.embedding_model !== modelNow; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      row = await officialRow();
    }
    expect(row.embedding_model).toBe(modelNow);
    expect(row.similarity_to_elsewhere).toBeLessThan(0.9); // 1 before
    const again = await chat(reader.token, { prompt: QUESTION, collection_id: [collection] });
    expect(doneOf(again)?.mode).toBe('official');
    expect((doneOf(again)!.official as { similarity: number }).similarity).toBeGreaterThan(0.99);
  });

  it('a vector stored for it must be for its question as it is now, by one who reads it', async () => {
    const vector = [1, ...Array<number>(EMBEDDING_COLUMN_DIMENSIONS - 1).fill(0)];
    const reembedded = (as: TestUser, question: string) =>
      withDb((db) =>
        db.transaction(async (tx) => {
          await tx.execute(sql`select set_config('kbchat.user_id', ${as.id}, true)`);
          const { rows } = await tx.execute<{ changed: number }>(
            sql`select kbchat_official_reembedded(${RETIRED_MODEL}, ${JSON.stringify([
              { id: officialId, question, embedding: vector },
            ])}::jsonb) as changed`,
          );
          return rows[0]!.changed;
        }),
      );
    // An owner's edit made while the vector was being made: the older wording is not stored.
    expect(await reembedded(owner, 'an older wording')).toBe(0);
    // Nor by one who does not read the collection.
    expect(await reembedded(outsider, QUESTION)).toBe(0);
    expect((await officialRow()).embedding_model).not.toBe(RETIRED_MODEL);
    // The question as it is, by its reader: stored.
    expect(await reembedded(reader, QUESTION)).toBe(1);
    expect(await officialRow()).toEqual({
      embedding_model: RETIRED_MODEL,
      similarity_to_elsewhere: 1,
    });
  });

  it('deleted by an owner, it is no longer given', async () => {
    const res = await call(`/modulechat/official_answer?id=${officialId}`, {
      method: 'DELETE',
      token: owner.token,
    });
    expect(res.status).toBeLessThan(300);
    const events = await chat(reader.token, { prompt: QUESTION, collection_id: [collection] });
    expect(doneOf(events)?.mode).toBe('retrieval');
  });
});
