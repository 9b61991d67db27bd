import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askedLanguage, CHINESE_LEAD_IN, I_DONT_KNOW_ZH } from './offline-model/answer.ts';
import {
  CONSTANT_WEIGHT,
  cosine,
  extractiveAnswer,
  startOfflineModel,
  type OfflineModel,
  type RecordedRequest,
} from './offline-model.ts';

const API_KEY = 'sk-offline-test-secret-4f2a';

// A question and a ~500-character paragraph that answers it, and an unrelated paragraph.
const EN_QUESTION = 'What are the eligibility requirements for the small business tax credit?';
const EN_RELATED =
  'The small business tax credit is available to firms with fewer than 50 full-time employees and annual gross receipts below $10 million. To be eligible, a business must have been registered in the state for at least two years, be current on all tax filings, and show that the credit will be used to hire new workers or invest in equipment. Applications are reviewed quarterly by the Department of Revenue, and approved firms may claim up to 15 percent of qualifying expenses against their corporate income tax liability.';
const EN_UNRELATED =
  'Municipal water systems face growing pressure from aging infrastructure and climate variability. Many pipes installed in the mid-twentieth century are now reaching the end of their service life, leading to leaks that waste an estimated 20 percent of treated water. Utilities are responding with sensor networks that detect pressure drops in real time, and with tiered pricing that encourages conservation during droughts. Federal grants cover part of the replacement cost, but local rate increases remain unpopular with residents.';
const ZH_QUESTION = '小微企业税收优惠政策的申请条件是什么？';
const ZH_RELATED =
  '小微企业税收优惠政策适用于从业人数不超过三百人、年度应纳税所得额不超过三百万元、资产总额不超过五千万元的企业。申请企业须在本地依法登记满两年，按时完成纳税申报，且近三年内无重大税收违法记录。符合条件的企业可向主管税务机关提交申请材料，包括营业执照、近两年的财务报表以及用工情况说明。税务机关在收到完整材料后二十个工作日内完成审核，审核结果通过电子税务局告知企业。审核通过的企业，其年应纳税所得额不超过一百万元的部分减按百分之二十五计入应纳税所得额，并按百分之二十的税率缴纳企业所得税。';
const ZH_UNRELATED =
  '城市供水系统正面临管网老化和气候变化带来的双重压力。许多上世纪铺设的管道已接近使用年限，漏损率居高不下，每年浪费大量经过处理的自来水。各地供水企业正在部署压力监测传感器，实时发现管网破损，并通过阶梯水价鼓励居民在干旱期间节约用水。中央财政补助可以覆盖部分改造费用，但地方水价上调仍然面临较大阻力。专家建议，应当将管网改造纳入城市更新整体规划，统筹安排地下空间，避免道路反复开挖，同时建立供水企业绩效考核制度，把漏损率、水质达标率和用户满意度作为核心指标。';

/** A prompt shaped like the chat module's: instructions, a delimited numbered context, the question. */
function ragPrompt(items: string[], question: string): string {
  return [
    'Answer the question using only the context below.',
    '1. Structure the answer as numbered points.',
    "2. If the context does not contain the answer, say you don't know.",
    '',
    'Context:',
    '"""',
    ...items.map((text, i) => `[${i + 1}] (file: policy-${i + 1}.pdf, page ${i + 2}) ${text}`),
    '"""',
    '',
    `Question: ${question}`,
  ].join('\n');
}

const SYSTEM = { role: 'system' as const, content: 'You are a senior public policy researcher.' };

const items = [EN_UNRELATED, EN_RELATED];
const messages = [SYSTEM, { role: 'user' as const, content: ragPrompt(items, EN_QUESTION) }];

let model: OfflineModel;
let client: OpenAI;

async function control(path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${model.controlUrl}/${path}`, {
    method: body === undefined && path === 'requests' ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? (path === 'requests' ? undefined : '{}') : JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

const recorded = async () => (await control('requests')) as RecordedRequest[];

async function embed(input: string | string[], extra: Partial<OpenAI.EmbeddingCreateParams> = {}) {
  const res = await client.embeddings.create({ model: 'text-embedding-3-small', input, ...extra });
  return res.data.map((d) => d.embedding);
}

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

async function until<T>(probe: () => Promise<T | undefined>, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  model = await startOfflineModel({ chunkDelayMs: 5 });
  client = new OpenAI({ baseURL: model.baseUrl, apiKey: API_KEY, maxRetries: 0 });
});

afterAll(async () => {
  await model.close();
});

beforeEach(async () => {
  await control('reset');
});

describe('startOfflineModel', () => {
  it('listens on loopback and exposes base and control URLs', () => {
    expect(model.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(model.baseUrl).toBe(`${model.url}/v1`);
    expect(model.controlUrl).toBe(`${model.url}/_control`);
  });

  it('refuses a non-loopback host', async () => {
    await expect(startOfflineModel({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });

  it('lists its two models', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toEqual(['offline-embedding', 'offline-chat']);
  });
});

describe('POST /v1/embeddings', () => {
  it('answers the SDK default (base64) request with float arrays of 1536 unit-length dimensions', async () => {
    const res = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['first text about taxes', 'second text about water'],
    });
    expect(res.object).toBe('list');
    expect(res.model).toBe('text-embedding-3-small');
    expect(res.data.map((d) => d.index)).toEqual([0, 1]);
    for (const d of res.data) {
      expect(Array.isArray(d.embedding)).toBe(true);
      expect(d.embedding).toHaveLength(1536);
      expect(Math.hypot(...d.embedding)).toBeCloseTo(1, 5);
    }
    expect(res.usage.prompt_tokens).toBeGreaterThan(0);
    expect(res.usage.total_tokens).toBe(res.usage.prompt_tokens);
    // The SDK really asked for base64 on the wire.
    const [request] = await recorded();
    expect(request?.body).toMatchObject({ encoding_format: 'base64' });
  });

  it('is deterministic and gives the same numbers as float and base64', async () => {
    const text = 'Deterministic embeddings for the offline model';
    const [a] = await embed(text);
    const [b] = await embed(text);
    const [asFloat] = await embed(text, { encoding_format: 'float' });
    expect(a).toEqual(b);
    expect(asFloat).toHaveLength(1536);
    // base64 carries float32: equal to the float answer within float32 precision.
    asFloat!.forEach((x, i) => expect(Math.abs(x - a![i]!)).toBeLessThan(1e-7));
    expect(asFloat!.filter((x) => x !== 0).length).toBeGreaterThan(3);
  });

  it('decodes base64 as little-endian float32 bytes', async () => {
    const res = await fetch(`${model.baseUrl}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        input: 'tax credit',
        encoding_format: 'base64',
        dimensions: 8,
      }),
    });
    const body = (await res.json()) as { data: Array<{ embedding: string }> };
    const bytes = Buffer.from(body.data[0]!.embedding, 'base64');
    expect(bytes.length).toBe(8 * 4);
    const decoded = Array.from({ length: 8 }, (_, i) => bytes.readFloatLE(i * 4));
    const [floats] = await embed('tax credit', { dimensions: 8, encoding_format: 'float' });
    decoded.forEach((x, i) => expect(x).toBeCloseTo(floats![i]!, 6));
  });

  it('honours dimensions, and a server-wide default', async () => {
    const [small] = await embed('dimension override', { dimensions: 256 });
    expect(small).toHaveLength(256);
    expect(Math.hypot(...small!)).toBeCloseTo(1, 5);
    const other = await startOfflineModel({ dimensions: 64 });
    try {
      const c = new OpenAI({ baseURL: other.baseUrl, apiKey: API_KEY, maxRetries: 0 });
      const res = await c.embeddings.create({ model: 'x', input: 'hello there' });
      expect(res.data[0]!.embedding).toHaveLength(64);
    } finally {
      await other.close();
    }
  });

  it('embeds text with no words in a direction of its own: similar to nothing with words', async () => {
    const [empty, stopWordsOnly, bangs, passage] = await embed(
      ['', 'what is the', '!!!', 'Applications for housing subsidies close in March.'],
      { encoding_format: 'float' },
    );
    expect(empty!.at(-1)).toBe(1);
    expect(empty!.slice(0, -1).every((x) => x === 0)).toBe(true);
    expect(stopWordsOnly).toEqual(empty);
    expect(bangs).toEqual(empty);
    expect(cosine(empty!, passage!)).toBe(0);
  });

  it('puts related texts above 0.5 and unrelated ones below, in English and Chinese', async () => {
    const [q, related, unrelated] = await embed([EN_QUESTION, EN_RELATED, EN_UNRELATED]);
    const [zq, zRelated, zUnrelated] = await embed([ZH_QUESTION, ZH_RELATED, ZH_UNRELATED]);
    // Measured: 0.686 / 0.420 (English), 0.602 / 0.430 (Chinese).
    expect(cosine(q!, related!)).toBeGreaterThan(0.65);
    expect(cosine(q!, unrelated!)).toBeLessThan(0.46);
    expect(cosine(zq!, zRelated!)).toBeGreaterThan(0.57);
    expect(cosine(zq!, zUnrelated!)).toBeLessThan(0.47);
    // Disjoint vocabularies sit at the constant weight exactly.
    const [x, y] = await embed(['alpha beta gamma', 'delta epsilon zeta']);
    expect(cosine(x!, y!)).toBeCloseTo(CONSTANT_WEIGHT, 2);
  });

  it('rejects token arrays, too many inputs and a missing model with 400', async () => {
    await expect(
      client.embeddings.create({ model: 'm', input: [1, 2, 3] as unknown as string[] }),
    ).rejects.toBeInstanceOf(BadRequestError);
    await expect(
      client.embeddings.create({ model: 'm', input: [[1, 2]] as unknown as string[] }),
    ).rejects.toThrow(/Token arrays/);
    const tooMany = Array.from({ length: 2049 }, (_, i) => `text ${i}`);
    const err = await client.embeddings.create({ model: 'm', input: tooMany }).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as APIError).status).toBe(400);
    expect((err as Error).message).toMatch(/2048/);
    const ok = await client.embeddings.create({ model: 'm', input: tooMany.slice(0, 2048) });
    expect(ok.data).toHaveLength(2048);
    const res = await fetch(`${model.baseUrl}/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ input: 'no model' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'model' } });
  });
});

describe('POST /v1/chat/completions', () => {
  it('streams a numbered extractive answer citing the right item, in small chunks', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      stream: true,
      max_tokens: 4096,
      temperature: 0.2,
    });
    const pieces: string[] = [];
    const arrivals: number[] = [];
    const finish: Array<string | null> = [];
    let role: string | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe('gpt-4o-mini');
      const choice = chunk.choices[0]!;
      role ??= choice.delta.role;
      if (choice.delta.content) {
        pieces.push(choice.delta.content);
        arrivals.push(Date.now());
      }
      finish.push(choice.finish_reason);
    }
    const answer = pieces.join('');
    expect(role).toBe('assistant');
    expect(pieces.length).toBeGreaterThan(20);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(20);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(pieces.length * 2);
    expect(finish.at(-1)).toBe('stop');
    expect(finish.slice(0, -1).every((f) => f === null)).toBe(true);
    const lines = answer.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(3);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^${i + 1}\\. .+ \\[2\\]$`)));
    expect(answer).toContain(
      '1. The small business tax credit is available to firms with fewer than 50 full-time employees and annual gross receipts below $10 million. [2]',
    );
    expect(answer).toContain('To be eligible, a business must have been registered');
    expect(answer).not.toContain('water');
  });

  it('sends a usage chunk with empty choices when include_usage is set', async () => {
    const stream = await client.chat.completions.create({
      model: 'm',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.prompt_tokens).toBeGreaterThan(100);
    expect(last.usage?.completion_tokens).toBeGreaterThan(10);
    expect(last.usage?.total_tokens).toBe(
      last.usage!.prompt_tokens + last.usage!.completion_tokens,
    );
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('answers the same text without streaming', async () => {
    const res = await client.chat.completions.create({ model: 'm', messages });
    expect(res.object).toBe('chat.completion');
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(res.choices[0]!.message.content).toBe(extractiveAnswer(messages));
    expect(res.choices[0]!.message.content).toMatch(/^1\. The small business tax credit .* \[2\]/);
    expect(res.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it('answers a Chinese question from Chinese context', async () => {
    const prompt = `请只根据以下资料回答问题，用编号要点作答。\n资料：\n1. ${ZH_UNRELATED}\n2. ${ZH_RELATED}\n问题：${ZH_QUESTION}`;
    const res = await client.chat.completions.create({
      model: 'm',
      messages: [SYSTEM, { role: 'user', content: prompt }],
    });
    expect(res.choices[0]!.message.content).toBe(
      [
        '1. 小微企业税收优惠政策适用于从业人数不超过三百人、年度应纳税所得额不超过三百万元、资产总额不超过五千万元的企业。 [2]',
        '2. 符合条件的企业可向主管税务机关提交申请材料，包括营业执照、近两年的财务报表以及用工情况说明。 [2]',
        '3. 申请企业须在本地依法登记满两年，按时完成纳税申报，且近三年内无重大税收违法记录。 [2]',
      ].join('\n'),
    );
  });

  it("says it doesn't know when nothing in the context overlaps", async () => {
    const stream = await client.chat.completions.create({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: ragPrompt(items, 'Who won the football world cup?') }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe("I don't know based on the provided context.");
    const zh = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: ragPrompt([ZH_RELATED], '月球上有多少座火山？') }],
    });
    expect(zh.choices[0]!.message.content).toBe('根据所提供的资料，我不知道。');
  });

  it('stops with finish_reason "length" past max_tokens', async () => {
    const res = await client.chat.completions.create({ model: 'm', messages, max_tokens: 10 });
    expect(res.choices[0]!.finish_reason).toBe('length');
    expect(res.choices[0]!.message.content).toBe(extractiveAnswer(messages).slice(0, 40));
    const stream = await client.chat.completions.create({
      model: 'm',
      messages,
      max_tokens: 5,
      stream: true,
    });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('length');
    expect(text).toBe(extractiveAnswer(messages).slice(0, 20));
  });

  it('rejects a request without messages', async () => {
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toThrow(
      /messages/,
    );
  });

  it('stops writing and records the abort when the client disconnects', async () => {
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'm', messages, stream: true },
      { signal: controller.signal },
    );
    let seen = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) seen += 1;
      if (seen === 2) controller.abort();
      if (seen > 5) break;
    }
    expect(seen).toBe(2);
    const [entry] = await until(async () => {
      const list = await recorded();
      return list[0]?.aborted ? list : undefined;
    });
    expect(entry).toMatchObject({ path: '/v1/chat/completions', aborted: true, status: 200 });
  });
});

describe('extractive answers from other prompt shapes', () => {
  it('reads "n." items inside a fenced block after numbered instructions', () => {
    const prompt = [
      'Rules:',
      '1. Answer only from the context.',
      '2. Use numbered points.',
      '```',
      '1. Rents are reviewed annually by the housing authority.',
      '2. Bus ridership recovered to 70 percent.',
      '```',
      'Question: How often are rents reviewed?',
    ].join('\n');
    expect(extractiveAnswer([{ role: 'user', content: prompt }])).toBe(
      '1. Rents are reviewed annually by the housing authority. [1]',
    );
  });

  it('takes the last paragraph as the question when there is no marker', () => {
    const prompt =
      '[1] Bus ridership recovered to 70 percent.\n[2] Rents are reviewed yearly.\n\nHow did bus ridership recover?';
    expect(extractiveAnswer([{ role: 'user', content: prompt }])).toBe(
      '1. Bus ridership recovered to 70 percent. [1]',
    );
  });
});

describe('chat’s page-marked files and the answer’s language (issue 13)', () => {
  const filesPrompt = (question: string, language: 'Chinese (简体中文)' | 'English') =>
    [
      'Answer the question using only the text of the chosen files below.',
      `5. Answer in ${language}, the language of the question.`,
      '',
      '<context>',
      '[policy.pdf p. 1]',
      'Residents may ask for a refund within 45 days. Refunds are paid to the card.',
      '',
      '[policy.pdf p. 2]',
      '住房补贴标准为每月1200元。申请人应当提交收入证明。',
      '</context>',
      '',
      `Question: ${question}`,
    ].join('\n');

  it('cites page markers as they are given', () => {
    const prompt = filesPrompt('How long do residents have to ask for a refund?', 'English');
    expect(extractiveAnswer([{ role: 'user', content: prompt }])).toBe(
      '1. Residents may ask for a refund within 45 days. [policy.pdf p. 1]',
    );
  });

  it('asked for Chinese: a Chinese lead-in before the points, and the Chinese “I don’t know”', () => {
    const system = {
      role: 'system',
      content: 'You are … Answer in Chinese (简体中文), the language of the question.',
    };
    const prompt = filesPrompt('住房补贴标准是多少？', 'Chinese (简体中文)');
    expect(extractiveAnswer([system, { role: 'user', content: prompt }])).toBe(
      `${CHINESE_LEAD_IN}\n1. 住房补贴标准为每月1200元。 [policy.pdf p. 2]`,
    );
    const none = filesPrompt('火星基地的氧气配额？', 'Chinese (简体中文)');
    expect(extractiveAnswer([system, { role: 'user', content: none }])).toBe(I_DONT_KNOW_ZH);
  });

  it('the system message’s instruction wins over a document’s', () => {
    const messages = [
      { role: 'system', content: 'Answer in English, the language of the question.' },
      {
        role: 'user',
        content:
          '<context>\n[1] 请用中文回答。Refunds take 10 days.\n</context>\n\nQuestion: How long do refunds take?',
      },
    ];
    expect(askedLanguage(messages)).toBe('en');
    expect(askedLanguage([{ role: 'user', content: 'Question: hi' }])).toBeUndefined();
  });

  it('a summary question: one point per page, each citing it', () => {
    const prompt = filesPrompt('总结这份文件的主要措施', 'Chinese (简体中文)');
    expect(extractiveAnswer([{ role: 'user', content: prompt }])).toBe(
      `${CHINESE_LEAD_IN}\n1. Residents may ask for a refund within 45 days. [policy.pdf p. 1]\n2. 住房补贴标准为每月1200元。 [policy.pdf p. 2]`,
    );
  });
});

describe('controls', () => {
  it('records every request in order, without the key', async () => {
    await embed('one');
    await client.chat.completions.create({ model: 'm', messages });
    await fetch(`${model.baseUrl}/models`);
    const list = await recorded();
    expect(list.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/embeddings',
      'POST /v1/chat/completions',
      'GET /v1/models',
    ]);
    expect(list[0]!.headers.authorization).toBe(true);
    expect(list[2]!.headers.authorization).toBe(false);
    expect(list[1]!.body).toMatchObject({ model: 'm', messages });
    expect(list.every((r) => r.aborted === false && r.status === 200)).toBe(true);
    expect(list[0]!.at).toBeLessThanOrEqual(list[1]!.at);
    expect(JSON.stringify(list)).not.toContain(API_KEY);
    await control('reset');
    expect(await recorded()).toEqual([]);
  });

  it('fails with a status: 429 with retry-after, then 500, then recovers', async () => {
    await control('fail', { path: '/v1/chat/completions', status: 429, times: 2 });
    await control('fail', { path: '/v1/chat/completions', status: 500 });
    for (let i = 0; i < 2; i += 1) {
      const err = await client.chat.completions.create({ model: 'm', messages }).catch((e) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as APIError).status).toBe(429);
      expect((err as APIError).headers?.get('retry-after')).toBe('1');
    }
    const err = await client.chat.completions
      .create({ model: 'm', messages, stream: true })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as APIError).status).toBe(500);
    const ok = await client.chat.completions.create({ model: 'm', messages });
    expect(ok.choices[0]!.message.content).toMatch(/^1\. /);
    const list = await recorded();
    expect(list.map((r) => [r.status, r.failure])).toEqual([
      [429, 'status'],
      [429, 'status'],
      [500, 'status'],
      [200, null],
    ]);
  });

  it('fails embeddings with a status on their own path only', async () => {
    await control('fail', { path: '/v1/embeddings', status: 503 });
    await client.chat.completions.create({ model: 'm', messages });
    const err = await embed('x').catch((e) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(503);
    expect(await embed('x')).toHaveLength(1);
  });

  it('drops a stream midway after the given number of chunks', async () => {
    await control('fail', { path: '/v1/chat/completions', mode: 'midstream', afterChunks: 3 });
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    const pieces: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) {
          if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
        }
      })(),
    ).rejects.toThrow();
    expect(pieces).toEqual(['1. ', 'The ', 'small ']);
    const [entry] = await recorded();
    expect(entry).toMatchObject({ failure: 'midstream', aborted: false });
  });

  it('hangs until the client gives up', async () => {
    await control('fail', { path: '/v1/embeddings', mode: 'hang' });
    const started = Date.now();
    const err = await client.embeddings
      .create({ model: 'm', input: 'x' }, { timeout: 300 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const [entry] = await until(async () => {
      const list = await recorded();
      return list[0]?.aborted ? list : undefined;
    });
    expect(entry).toMatchObject({ failure: 'hang', aborted: true, status: null });
  });

  it('closes the connection immediately', async () => {
    await control('fail', { path: '/v1/chat/completions', mode: 'close' });
    const err = await client.chat.completions.create({ model: 'm', messages }).catch((e) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('adds latency before answering', async () => {
    await control('delay', { path: '/v1/embeddings', ms: 250 });
    let started = Date.now();
    await embed('slow');
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    started = Date.now();
    await client.chat.completions.create({ model: 'm', messages });
    expect(Date.now() - started).toBeLessThan(240);
    await control('delay', { path: '/v1/embeddings', ms: 0 });
    started = Date.now();
    await embed('fast');
    expect(Date.now() - started).toBeLessThan(240);
  });

  it('pins exact embeddings for exact texts, until reset', async () => {
    const query = 'pinned query';
    const s = (x: number) => Math.sqrt(1 - x * x);
    await control('embeddings', { text: query, vector: [1] });
    await control('embeddings', { text: 'doc 0.49', vector: [0.49, s(0.49)] });
    await control('embeddings', { text: 'doc 0.5', vector: [0.5, s(0.5)] });
    await control('embeddings', { text: 'doc 0.51', vector: [0.51, s(0.51)] });
    await control('embeddings', { text: 'unnormalised', vector: [3, 4, 5, 6, 7] });
    const [q, d49, d50, d51] = await embed([query, 'doc 0.49', 'doc 0.5', 'doc 0.51'], {
      encoding_format: 'float',
    });
    expect(q).toHaveLength(1536);
    expect(q!.slice(0, 2)).toEqual([1, 0]);
    // Unit vectors, so the similarity is the dot product: exactly the pinned first component.
    expect(dot(q!, d49!)).toBe(0.49);
    expect(dot(q!, d50!)).toBe(0.5);
    expect(dot(q!, d51!)).toBe(0.51);
    expect(cosine(q!, d49!)).toBeCloseTo(0.49, 12);
    expect(cosine(q!, d51!)).toBeCloseTo(0.51, 12);
    // Verbatim: neither normalised nor hashed; truncated to the requested dimensions.
    const [raw] = await embed('unnormalised', { dimensions: 3, encoding_format: 'float' });
    expect(raw).toEqual([3, 4, 5]);
    // Through the SDK's default base64 path the values arrive as float32.
    const [b49] = await embed('doc 0.49');
    expect(b49![0]).toBe(Math.fround(0.49));
    await control('reset');
    const [after] = await embed(query, { encoding_format: 'float' });
    expect(after!.slice(0, 2)).not.toEqual([1, 0]);
  });

  it('rejects malformed control requests', async () => {
    const res = await fetch(`${model.controlUrl}/fail`, {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/embeddings', mode: 'explode' }),
    });
    expect(res.status).toBe(400);
    const pin = await fetch(`${model.controlUrl}/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ text: 'x', vector: ['a'] }),
    });
    expect(pin.status).toBe(400);
  });
});

describe('lifecycle', () => {
  it('closes quickly even with a hanging request open', async () => {
    const other = await startOfflineModel();
    await fetch(`${other.controlUrl}/fail`, {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/embeddings', mode: 'hang' }),
    });
    const pending = fetch(`${other.baseUrl}/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', input: 'x' }),
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
    await expect(fetch(`${other.url}/v1/models`)).rejects.toThrow();
  });

  it('runs as a CLI and prints its URL', async () => {
    const script = fileURLToPath(new URL('./offline-model.ts', import.meta.url));
    const child = spawn(process.execPath, [script, '--port', '0', '--chunk-delay-ms', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/v1/models`);
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
