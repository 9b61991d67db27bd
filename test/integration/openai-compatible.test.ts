import OpenAI from 'openai';
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { DEFAULT_ERROR_TEXTS } from '../../workers/chat/src/answer/language';
import { call, createUser, tokenFor } from '../helpers/auth';

type Source = { file_id: string; page: number; collection_id: string };
type WithSources = { sources?: Source[]; kbchat_refusal?: { code: string; threshold?: number } };

/** The credential integrations use: an API key (`kbc_…`), made with a login token. */
async function apiKeyFor(user: { username: string; password: string }) {
  const login = await tokenFor(user.username, user.password);
  const res = await call('/moduleauth/api_key', { token: login, json: { name: 'openai client' } });
  expect(res.status, await res.clone().text()).toBe(200);
  const { id, key } = (await res.json<{ data: { id: string; key: string } }>()).data;
  return { id, key, login };
}

/** The real `openai` client, pointed at the gateway in workerd. */
const client = (apiKey: string) =>
  new OpenAI({
    baseURL: 'http://kb.test/modulechat/v1',
    apiKey,
    maxRetries: 0,
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });

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

let openai: OpenAI;
let token = '';
let collection = '';
let englishFile = '';
let chineseFile = '';

async function upload(pages: string[], name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new File([makeTextPdf(pages)], name));
  form.append('collection_id', collection);
  const res = await call('/moduleknowledge/upload', { token, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: { id: string } }>()).data.id;
}

beforeAll(async () => {
  const user = await createUser();
  token = (await apiKeyFor(user)).key;
  openai = client(token);
  const res = await call('/moduleknowledge/collection', { token, json: { name: 'OpenAI' } });
  collection = (await res.json<{ data: { id: string } }>()).data.id;
  englishFile = await upload(ENGLISH, 'quillmoor.pdf');
  chineseFile = await upload(CHINESE, '出租车.pdf');
});

const model = () => `kbchat-collections:${collection}`;

describe('the openai client against /modulechat/v1', () => {
  it('streams an answer: role first, content, sources on the stop chunk, usage, [DONE]', async () => {
    const stream = await openai.chat.completions.create({
      model: model(),
      messages: [{ role: 'user', content: 'What is the Quillmoor refund rule for freight?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('30 days');
    const stop = chunks.find((c) => c.choices[0]?.finish_reason === 'stop')!;
    expect((stop as unknown as WithSources).sources?.[0]).toMatchObject({
      file_id: englishFile,
      page: 2,
    });
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('answers without streaming, with sources in an extra field', async () => {
    const completion = await openai.chat.completions.create({
      model: 'kbchat',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is the Quillmoor refund rule?' }] },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.choices[0]!.message.role).toBe('assistant');
    expect(completion.choices[0]!.message.content).toContain('Quillmoor');
    const sources = (completion as unknown as WithSources).sources!;
    expect(sources.some((s) => s.file_id === englishFile)).toBe(true);
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('English: a follow-up in the history is answered from the freight refund page', async () => {
    const history = [
      { role: 'user' as const, content: 'What is the Quillmoor refund rule?' },
      {
        role: 'assistant' as const,
        content: 'Passenger tickets are refunded within 14 days, less a handling fee of 19 euros.',
      },
      { role: 'user' as const, content: 'And what about freight?' },
    ];
    const completion = await openai.chat.completions.create({ model: model(), messages: history });
    expect(completion.choices[0]!.message.content).toContain('30 days');
    expect((completion as unknown as WithSources).sources![0]).toMatchObject({
      file_id: englishFile,
      page: 2,
    });
    // Alone, the same words find the freight yard: the history made the difference.
    const alone = await openai.chat.completions.create({
      model: model(),
      messages: [{ role: 'user', content: 'And what about freight?' }],
    });
    expect((alone as unknown as WithSources).sources?.[0]).not.toMatchObject({
      file_id: englishFile,
      page: 2,
    });
  });

  it('Chinese: “那夜间呢？” after the fare question is answered from the night fare page', async () => {
    const completion = await openai.chat.completions.create({
      model: model(),
      messages: [
        { role: 'user', content: '出租车起步价是多少？' },
        { role: 'assistant', content: '白天出租车起步价为13元，包含3公里。' },
        { role: 'user', content: '那夜间呢？' },
      ],
    });
    expect(completion.choices[0]!.message.content).toContain('16元');
    expect((completion as unknown as WithSources).sources![0]).toMatchObject({
      file_id: chineseFile,
      page: 2,
    });
  });

  it('refuses as an ordinary assistant message, finish_reason stop, saying why', async () => {
    const completion = await openai.chat.completions.create({
      model: model(),
      messages: [{ role: 'user', content: 'Zebra migration timetable in Antarctica' }],
    });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.choices[0]!.message.content).toBe(
      DEFAULT_ERROR_TEXTS.en.no_relevant_knowledge,
    );
    expect((completion as unknown as WithSources).kbchat_refusal).toMatchObject({
      code: 'no_relevant_knowledge',
      threshold: expect.any(Number),
    });
    const stream = await openai.chat.completions.create({
      model: model(),
      messages: [{ role: 'user', content: '斑马在南极的迁徙时间表' }],
      stream: true,
    });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(DEFAULT_ERROR_TEXTS.zh.no_relevant_knowledge);
    expect(finish).toBe('stop');
  });

  it('limits the chat to files with kbchat-files:', async () => {
    const completion = await openai.chat.completions.create({
      model: `kbchat-files:${chineseFile}`,
      messages: [{ role: 'user', content: '夜间出租车起步价是多少？' }],
    });
    const sources = (completion as unknown as WithSources).sources!;
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((s) => s.file_id === chineseFile)).toBe(true);
    expect(completion.choices[0]!.message.content).toContain('16');
  });

  it('lists the models', async () => {
    const models = [];
    for await (const m of openai.models.list()) models.push(m);
    expect(models).toEqual([
      { id: 'kbchat', object: 'model', created: expect.any(Number), owned_by: 'kbchat' },
    ]);
  });

  it('refuses a bad bearer with AuthenticationError', async () => {
    const err = await client('not-a-token')
      .chat.completions.create({ model: 'kbchat', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(
      await client('nope')
        .models.list()
        .catch((e: unknown) => e),
    ).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('hostile input gets 4xx in the problem shape, and nothing is stored', () => {
  const refuse = async (body: Record<string, unknown>) =>
    openai.chat.completions
      .create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .then(() => undefined)
      .catch((e: unknown) => e);

  it.each<[string, Record<string, unknown>, number, string]>([
    ['no messages', { model: 'kbchat', messages: [] }, 400, 'validation_failed'],
    [
      'an assistant message last',
      { model: 'kbchat', messages: [{ role: 'assistant', content: 'hi' }] },
      400,
      'invalid_messages',
    ],
    [
      'an empty question',
      { model: 'kbchat', messages: [{ role: 'user', content: '   ' }] },
      400,
      'invalid_messages',
    ],
    [
      'a tool message',
      { model: 'kbchat', messages: [{ role: 'tool', content: 'x', tool_call_id: 'a' }] },
      400,
      'validation_failed',
    ],
    [
      'tools',
      {
        model: 'kbchat',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'f' } }],
      },
      400,
      'validation_failed',
    ],
    [
      'n > 1',
      { model: 'kbchat', messages: [{ role: 'user', content: 'hi' }], n: 2 },
      400,
      'validation_failed',
    ],
    [
      'an image part',
      {
        model: 'kbchat',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
      },
      400,
      'validation_failed',
    ],
    [
      'too many messages',
      {
        model: 'kbchat',
        messages: Array.from({ length: 101 }, () => ({ role: 'user', content: 'hi' })),
      },
      400,
      'validation_failed',
    ],
    [
      'a huge question',
      { model: 'kbchat', messages: [{ role: 'user', content: 'a'.repeat(4001) }] },
      413,
      'prompt_too_long',
    ],
    [
      'an unknown model',
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      404,
      'model_not_found',
    ],
    [
      'malformed file ids',
      { model: 'kbchat-files:not-an-id', messages: [{ role: 'user', content: 'hi' }] },
      404,
      'model_not_found',
    ],
  ])('%s', async (_, body, status, code) => {
    const before = await conversationCount();
    const err = await refuse(body);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
    if (status === 400) expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    if (status === 404) expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    // The raw answer: the house problem shape, carrying OpenAI's error object, which is what
    // the SDK reads: its message and code are the problem's.
    const res = await call('/modulechat/v1/chat/completions', { token, json: body });
    expect(res.status).toBe(status);
    expect(res.headers.get('Content-Type')).toBe('application/problem+json');
    const problem = await res.json<{ detail: string }>();
    expect(problem).toMatchObject({ status, code, error: { message: problem.detail, code } });
    const apiError = err as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.message).toBe(`${status} ${problem.detail}`);
    expect(apiError.code).toBe(code);
    expect(apiError.type).toBe('invalid_request_error');
    expect(await conversationCount()).toBe(before);
  });

  it('ignores unknown extra fields, and stores no conversation for an answer', async () => {
    const before = await conversationCount();
    const res = await call('/modulechat/v1/chat/completions', {
      token,
      json: {
        model: model(),
        messages: [{ role: 'user', content: 'What is the Quillmoor refund rule?' }],
        some_vendor_field: { x: 1 },
        temperature: 0.3,
        max_tokens: 200,
        user: 'u1',
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'chat.completion' });
    expect(await conversationCount()).toBe(before);
  });
});

async function conversationCount(): Promise<number> {
  const res = await call('/modulechat/conversations', { token });
  return (await res.json<{ data: { total: number } }>()).data.total;
}

describe('an API key is the way in', () => {
  it('a login token is refused, 403 api_key_required, in the header and in ?t=, as OpenAI errors', async () => {
    const user = await createUser();
    const login = await tokenFor(user.username, user.password);
    const withLogin = client(login);
    const asked = await withLogin.chat.completions
      .create({ model: 'kbchat', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    const listed = await withLogin.models.list().catch((e: unknown) => e);
    for (const err of [asked, listed]) {
      expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('api_key_required');
    }
    const body = JSON.stringify({ model: 'kbchat', messages: [{ role: 'user', content: 'hi' }] });
    for (const request of [
      new Request(`http://kb.test/modulechat/v1/chat/completions?t=${login}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      }),
      new Request(`http://kb.test/modulechat/v1/models?t=${login}`),
    ]) {
      const res = await exports.default.fetch(request);
      expect(res.status, request.url.split('?')[0]).toBe(403);
      expect(res.headers.get('Content-Type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({
        code: 'api_key_required',
        error: { code: 'api_key_required', type: 'invalid_request_error' },
      });
    }
  });

  it('streams with a key; once the key is revoked the next call is refused (401)', async () => {
    const user = await createUser();
    const { id, key, login } = await apiKeyFor(user);
    const keyed = client(key);
    const ask = () =>
      keyed.chat.completions.create({
        model: 'kbchat',
        messages: [{ role: 'user', content: 'What is the Quillmoor refund rule?' }],
        stream: true,
      });
    let text = '';
    for await (const chunk of await ask()) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
    const revoked = await call(`/moduleauth/api_key?id=${id}`, { method: 'DELETE', token: login });
    expect(revoked.status).toBe(204);
    const refused = await ask().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('unauthenticated');
  });
});
