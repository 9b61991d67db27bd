import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { readSse } from '#shared/service';
import { call, createUser, tokenFor } from '../helpers/auth';

// An answer's sentences checked against the passages they cite, end to end with the offline
// model (which quotes its context, so every sentence it writes is found): the `done` event,
// the sources' citation order and passage ids, the stored turn, and the OpenAI door.

type Source = { file_name: string; chunk_id?: number | null; citation?: number | null };
type Support = { sentence_index: number; text: string; cited: number[]; supported: boolean };

const CHINESE = [
  '出租车起步价：白天出租车起步价为13元，包含3公里。',
  '出租车夜间起步价：夜间（23时至次日5时）出租车起步价为16元，包含3公里。',
];
const ENGLISH = [
  'Quillmoor refund rule. Passenger tickets are refunded within 14 days of the request, less a handling fee of 19 euros.',
];

let token = '';
let apiKey = '';
let collection = '';

const data = async <T>(res: Response): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: T }>()).data;
};

async function upload(pages: string[], name: string) {
  const form = new FormData();
  form.append('file', new File([makeTextPdf(pages)], name));
  form.append('collection_id', collection);
  await data(await call('/moduleknowledge/upload', { token, body: form }));
}

async function chat(prompt: string) {
  const res = await call('/modulechat/chat', {
    token,
    json: { prompt, collection_id: collection },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const events: { event: string; data: Record<string, unknown> }[] = [];
  for await (const { event, data: raw } of readSse(res.body!)) {
    events.push({ event, data: JSON.parse(raw) as Record<string, unknown> });
  }
  const answer = events
    .filter((e) => e.event === 'message')
    .slice(1)
    .map((e) => e.data.content)
    .join('');
  return {
    conversation: events[0]!.data as { conversation_id: string },
    answer,
    sources: events.find((e) => e.event === 'sources')!.data as unknown as Source[],
    done: events.find((e) => e.event === 'done')!.data as { support?: Support[] },
  };
}

beforeAll(async () => {
  const user = await createUser();
  token = await tokenFor(user.username, user.password);
  const key = await call('/moduleauth/api_key', { token, json: { name: 'support test' } });
  apiKey = (await data<{ key: string }>(key)).key;
  collection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', { token, json: { name: 'Support' } }),
    )
  ).id;
  await upload(CHINESE, '出租车.pdf');
  await upload(ENGLISH, 'quillmoor.pdf');
});

describe('an answer’s sentences checked against the passages they cite', () => {
  it('done tells each sentence’s support; sources their passage and citation order', async () => {
    const { answer, sources, done, conversation } = await chat('夜间出租车起步价是多少？');
    expect(answer).toContain('16元');
    const support = done.support!;
    expect(support.length).toBeGreaterThan(0);
    // The offline model quotes its context: every sentence is found, the lead-in skipped.
    expect(support.every((s) => s.supported)).toBe(true);
    expect(support.map((s) => s.sentence_index)).toEqual(support.map((_, i) => i));
    expect(support.some((s) => s.text.includes('16元'))).toBe(true);
    expect(support.find((s) => s.text.includes('16元'))!.cited.length).toBeGreaterThan(0);
    // `[n]` is the n-th source: the sources cited are numbered in the order first cited.
    const first = Number(/\[(\d+)\]/.exec(answer)![1]);
    expect(sources[first - 1]!.citation).toBe(1);
    expect(sources.every((s) => typeof s.chunk_id === 'number')).toBe(true);
    const citations = sources.map((s) => s.citation).filter((c) => c !== null);
    expect([...citations].sort()).toEqual(citations.map((_, i) => i + 1));

    // The stored turn keeps the support and names the model that answered.
    const deadline = Date.now() + 10_000;
    let turn: { support?: Support[] | null; model?: string | null } | undefined;
    while (!turn && Date.now() < deadline) {
      const res = await call(`/modulechat/conversation?id=${conversation.conversation_id}`, {
        token,
      });
      if (res.status === 200) turn = (await data<{ messages: (typeof turn)[] }>(res)).messages[0];
      if (!turn) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(turn!.support).toEqual(support);
    expect(turn!.model).toEqual(expect.any(String));
  });

  it('the OpenAI door carries support next to sources, streaming and not', async () => {
    const body = {
      model: `kbchat-collections:${collection}`,
      messages: [{ role: 'user', content: 'What is the Quillmoor handling fee?' }],
    };
    const whole = await call('/modulechat/v1/chat/completions', { token: apiKey, json: body });
    expect(whole.status, await whole.clone().text()).toBe(200);
    const completion = await whole.json<{ sources: Source[]; support: Support[] }>();
    expect(completion.support.length).toBeGreaterThan(0);
    expect(completion.support.every((s) => s.supported)).toBe(true);
    expect(completion.sources.some((s) => s.citation === 1)).toBe(true);

    const streamed = await call('/modulechat/v1/chat/completions', {
      token: apiKey,
      json: { ...body, stream: true },
    });
    const chunks: Record<string, unknown>[] = [];
    for await (const { data: raw } of readSse(streamed.body!)) {
      if (raw !== '[DONE]') chunks.push(JSON.parse(raw) as Record<string, unknown>);
    }
    const last = chunks.find((c) => 'sources' in c)!;
    expect(last.support).toEqual(completion.support);
  });
});
