import { exports } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  CHINESE_POLICY_FIXTURE,
  ENGLISH_POLICY_FIXTURE,
  makeTextPdf,
} from '../../dev/fixtures/pdf-builder';
import { CHINESE_LEAD_IN } from '../../dev/stack/offline-model/answer';
import { readSse } from '#shared/service';
import { DEFAULT_ERROR_TEXTS } from '../../workers/chat/src/answer/language';
import { systemMessage } from '../../workers/chat/src/answer/prompt';

/** Files uploaded without a collection are in the shared one; sources name it. */
const SHARED_COLLECTION = {
  collection_id: '00000000-0000-0000-0000-000000000000',
  collection_name: 'Shared',
};

const { no_relevant_knowledge: NO_RELEVANT_KNOWLEDGE } = DEFAULT_ERROR_TEXTS.en;
const { knowledge_unavailable: KNOWLEDGE_UNAVAILABLE, model_failed: MODEL_FAILED } =
  DEFAULT_ERROR_TEXTS.en;

const stack = inject('stack');
const BASE = 'http://kb.test';
let token = '';

type Event = { event: string; data: unknown };
type Message = { content: string; request_id: string; type: string; code?: string };
type Recorded = {
  path: string;
  at: number;
  status: number | null;
  aborted: boolean;
  body: Record<string, unknown>;
};

const control = async (path: string, body?: unknown) =>
  fetch(`${stack.modelControlUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const recorded = async (path: string) =>
  (await (await control('/requests')).json<Recorded[]>()).filter((r) => r.path === path);

function chat(body: unknown, init: RequestInit = {}) {
  return exports.default.fetch(
    new Request(`${BASE}/modulechat/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      ...init,
    }),
  );
}

/**
 * The stream's events after the first, which is always `conversation` (the turn's conversation,
 * conversations.test.ts): these tests are about what follows it, as the original's clients read.
 */
async function events(res: Response): Promise<Event[]> {
  const out: Event[] = [];
  for await (const { event, data } of readSse(res.body!))
    out.push({ event, data: JSON.parse(data) });
  expect(out[0]?.event).toBe('conversation');
  return out.slice(1);
}

async function upload(pages: string[], name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new File([makeTextPdf(pages)], name));
  const res = await exports.default.fetch(
    new Request(`${BASE}/moduleknowledge/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: { id: string } }>()).data.id;
}

let policyFile = '';
let probeFile = '';
const PROBE_TEXT = `Threshold probe ${crypto.randomUUID()}.`;
// Pinned vectors live on dimensions of their own (1000, 1001): the offline model's constant
// component is dimension 0 and its lexical features spread thinly over the rest.
const PROBE_DIM = 1000;
const unit = (...values: number[]) => [...new Array<number>(PROBE_DIM).fill(0), ...values];

beforeAll(async () => {
  const login = await exports.default.fetch(
    new Request(`${BASE}/moduleauth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(stack.admin),
    }),
  );
  token = (await login.json<{ data: { token: string } }>()).data.token;
  await control('/reset', {});
  policyFile = await upload(
    ENGLISH_POLICY_FIXTURE.pages.map((p) => `${p}\nChat suite ${crypto.randomUUID()}`),
    'charter.pdf',
  );
  // One page, one chunk, whose embedding is pinned: similarities become exact.
  await control('/embeddings', { text: PROBE_TEXT, vector: unit(1, 0, 0, 0) });
  probeFile = await upload([PROBE_TEXT], 'probe.pdf');
});

beforeEach(async () => {
  await control('/reset', {});
  await control('/embeddings', { text: PROBE_TEXT, vector: unit(1, 0, 0, 0) });
});

describe('answering from the knowledge base', () => {
  it('streams prompt echo → answer chunks → sources → done, with the spec’s headers', async () => {
    const res = await chat({ prompt: 'Marrowbank refund rules', file_id: policyFile });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();

    const all = await events(res);
    const kinds = all.map((e) => e.event);
    expect(kinds.at(-2)).toBe('sources');
    expect(kinds.at(-1)).toBe('done');
    const messages = all.filter((e) => e.event === 'message').map((e) => e.data as Message);
    expect(messages.length).toBeGreaterThan(2);
    expect(messages.every((m) => m.type === 'content' && m.request_id === requestId)).toBe(true);
    // The echo: tag openers neutralised (CHAT_NEUTRALISE_MARKUP), its delimiters kept.
    expect(messages[0]!.content).toContain('<context>');
    expect(messages[0]!.content).toContain('Marrowbank');
    const answer = messages
      .slice(1)
      .map((m) => m.content)
      .join('');
    expect(answer).toMatch(/^1\. /);
    const sources = all.at(-2)!.data as { file_id: string; page: number; similarity: number }[];
    expect(sources[0]).toMatchObject({ file_id: policyFile, page: 1 });
    expect(all.at(-1)!.data).toMatchObject({ request_id: requestId, language: 'en' });
  });

  it('sends the model exactly the spec’s request', async () => {
    await events(await chat({ prompt: 'Marrowbank refund rules' }));
    const [request] = await recorded('/v1/chat/completions');
    const body = request!.body as {
      messages: { role: string; content: string }[];
      max_tokens: number;
      temperature: number;
      stream: boolean;
    };
    expect(body.max_tokens).toBe(4096);
    expect(body.temperature).toBe(0.2);
    expect(body.stream).toBe(true);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0]!.content).toBe(systemMessage('en'));
    expect(body.messages[0]!.content).toMatch(/senior public policy researcher/);
    const user = body.messages[1]!.content;
    expect(user).toMatch(/only the context/);
    expect(user).toMatch(/numbered points/);
    expect(user).toMatch(/I don't know/);
    // Unscoped, other suites' files may rank first: the item's form is what matters here.
    expect(user.indexOf('<context>')).toBeLessThan(user.search(/\[1\] \(file: .+, page \d+\)/));
    expect(user.trimEnd().endsWith('Question: Marrowbank refund rules')).toBe(true);
  });

  it('limits the chat to file_id: only that file is read', async () => {
    const all = await events(await chat({ prompt: 'Marrowbank refund rules', file_id: probeFile }));
    // The probe file holds nothing about refunds; the charter (another file) would match. The
    // user chose the probe, so its text is given (no similarity refusal) and the model, told
    // to use only it, says it does not know.
    const messages = all.filter((e) => e.event === 'message').map((e) => e.data as Message);
    expect(messages[0]!.content).toContain(PROBE_TEXT);
    expect(messages[0]!.content).not.toContain('Marrowbank parking');
    expect(
      messages
        .slice(1)
        .map((m) => m.content)
        .join(''),
    ).toMatch(/I don't know/);
    expect(all.at(-2)).toEqual({
      event: 'sources',
      data: [
        {
          file_id: probeFile,
          file_name: 'probe.pdf',
          ...SHARED_COLLECTION,
          page: 1,
          section: null,
          text_source: 'text_layer',
          similarity: null,
          // A whole page given (full_text) is its own source; the answer cites nothing.
          chunk_id: null,
          validity: { status: 'in_force', relations: [] },
          citation: null,
        },
      ],
    });
    expect(all.at(-1)!.data).toMatchObject({ mode: 'full_text' });
  });

  it('a prompt with no words (“!!!”, “the”) is refused, not answered from arbitrary files', async () => {
    for (const prompt of ['!!!', 'the', '?? ...']) {
      const all = await events(await chat({ prompt }));
      expect(all[0], prompt).toEqual({
        event: 'message',
        data: {
          content: NO_RELEVANT_KNOWLEDGE,
          request_id: expect.any(String),
          type: 'error',
          code: 'no_relevant_knowledge',
        },
      });
      expect(all.slice(1).map((e) => e.event)).toEqual(['refusal']);
    }
  });
});

describe('the similarity threshold (0.5, inclusive)', () => {
  it.each([
    [0.49, false],
    [0.5, true],
    [0.51, true],
  ])('a best similarity of %s answers: %s', async (similarity, answers) => {
    const prompt = `threshold question ${similarity}`;
    const rest = Math.sqrt(1 - similarity * similarity);
    await control('/embeddings', {
      text: prompt,
      vector: similarity === 0.5 ? unit(0.5, 0.5, 0.5, 0.5) : unit(similarity, rest),
    });
    // Unscoped (the spec's path): the pinned vector is near nothing but the probe.
    const all = await events(await chat({ prompt }));
    const completions = await recorded('/v1/chat/completions');
    if (answers) {
      expect(all.at(-1)!.event).toBe('done');
      expect(completions).toHaveLength(1);
    } else {
      expect(all[0]).toEqual({
        event: 'message',
        data: {
          content: NO_RELEVANT_KNOWLEDGE,
          request_id: expect.any(String),
          type: 'error',
          code: 'no_relevant_knowledge',
        },
      });
      expect(all.slice(1).map((e) => e.event)).toEqual(['refusal']);
      expect(completions).toHaveLength(0);
    }
  });
});

describe('a refusal says why', () => {
  it('follows the error message with the best similarity, the threshold and the nearest candidates', async () => {
    const prompt = 'refusal explanation question';
    await control('/embeddings', { text: prompt, vector: unit(0.47, Math.sqrt(1 - 0.47 ** 2)) });
    // Unscoped: a chat limited to files never refuses by similarity (issue 13).
    const all = await events(await chat({ prompt }));
    // The message the original's clients read keeps content, request_id, type; code is added.
    expect(all[0]).toEqual({
      event: 'message',
      data: {
        content: NO_RELEVANT_KNOWLEDGE,
        request_id: expect.any(String),
        type: 'error',
        code: 'no_relevant_knowledge',
      },
    });
    const requestId = (all[0]!.data as Message).request_id;
    expect(all.slice(1)).toEqual([
      {
        event: 'refusal',
        data: {
          request_id: requestId,
          best_similarity: expect.closeTo(0.47, 5),
          threshold: 0.5,
          // The probe first; other suites' chunks, near nothing, may follow.
          candidates: expect.arrayContaining([
            {
              file_id: probeFile,
              file_name: 'probe.pdf',
              ...SHARED_COLLECTION,
              page: 1,
              section: null,
              text_source: 'text_layer',
              similarity: expect.closeTo(0.47, 5),
              chunk_id: expect.any(Number),
              citation: null,
            },
          ]),
        },
      },
    ]);
    const refusal = all[1]!.data as { candidates: { file_id: string }[] };
    expect(refusal.candidates[0]!.file_id).toBe(probeFile);
    expect(await recorded('/v1/chat/completions')).toHaveLength(0);
  });

  it('names at most three candidates, most similar first', async () => {
    const prompt = 'refusal candidates question';
    await control('/embeddings', { text: prompt, vector: unit(0, 0, 0, 1) });
    const all = await events(await chat({ prompt }));
    const refusal = all.find((e) => e.event === 'refusal')!.data as {
      best_similarity: number | null;
      candidates: { similarity: number }[];
    };
    expect(refusal.candidates.length).toBeLessThanOrEqual(3);
    expect(refusal.best_similarity).toBe(refusal.candidates[0]?.similarity ?? null);
    const similarities = refusal.candidates.map((c) => c.similarity);
    expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
    // Nothing retrieved at all (best_similarity null): answer.test.ts.
  });
});

describe('failures end the stream with one error message', () => {
  it('the model endpoint down', async () => {
    await control('/fail', { path: '/v1/chat/completions', times: 5, status: 503 });
    const all = await events(
      await chat({ prompt: 'Marrowbank refund rules', file_id: policyFile }),
    );
    expect(all.at(-1)).toMatchObject({
      event: 'message',
      data: { type: 'error', content: MODEL_FAILED, code: 'model_failed' },
    });
    expect(all.some((e) => e.event === 'done')).toBe(false);
  });

  it('the model failing mid-stream', async () => {
    await control('/fail', { path: '/v1/chat/completions', mode: 'midstream', afterChunks: 3 });
    const all = await events(
      await chat({ prompt: 'Marrowbank refund rules', file_id: policyFile }),
    );
    const messages = all.map((e) => e.data as Message);
    expect(messages.filter((m) => m.type === 'content').length).toBeGreaterThanOrEqual(2);
    expect(all.at(-1)).toMatchObject({ data: { type: 'error', content: MODEL_FAILED } });
  });

  it('knowledge failing (its embedding call fails)', async () => {
    await control('/fail', { path: '/v1/embeddings', times: 10, status: 500 });
    const all = await events(await chat({ prompt: 'Marrowbank refund rules' }));
    expect(all).toEqual([
      {
        event: 'message',
        data: {
          content: KNOWLEDGE_UNAVAILABLE,
          request_id: expect.any(String),
          type: 'error',
          code: 'knowledge_unavailable',
        },
      },
    ]);
    expect(await recorded('/v1/chat/completions')).toHaveLength(0);
  });
});

describe('streaming', () => {
  it('delivers the first messages before the model has finished', async () => {
    const res = await chat({ prompt: 'Marrowbank refund rules', file_id: policyFile });
    const started = Date.now();
    const arrivals: { event: string; at: number }[] = [];
    for await (const { event } of readSse(res.body!))
      arrivals.push({ event, at: Date.now() - started });
    const firstAnswerChunk = arrivals[1]!.at;
    const done = arrivals.at(-1)!.at;
    // The offline model pauses between its chunks: a buffered path would deliver everything
    // at once, at the end.
    expect(arrivals.length).toBeGreaterThan(5);
    expect(done - firstAnswerChunk).toBeGreaterThan(50);
  });

  it('opens the stream (headers and a first byte) before retrieval has finished', async () => {
    // The question's embedding takes a second here: the stream must not wait for it.
    await control('/delay', { path: '/v1/embeddings', ms: 1_000 });
    try {
      const prompt = 'Marrowbank refund rules';
      const sent = Date.now();
      const res = await chat({ prompt }); // unscoped: the question is embedded
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe(': open\n\n');
      const embedding = (await recorded('/v1/embeddings')).filter(
        (r) => r.at >= sent && JSON.stringify(r.body).includes(prompt),
      );
      // Knowledge embeds it for the retrieval, chat beside it for the official answers.
      expect(embedding).toHaveLength(2);
      expect(embedding.map((r) => r.status)).toEqual([null, null]); // still being answered
      const rest = await new Response(
        new ReadableStream({
          pull: async (controller) => {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
        }),
      ).text();
      expect(rest).toContain('event: done');
    } finally {
      await control('/delay', { path: '/v1/embeddings', ms: 0 });
    }
  });

  it('a client that goes away aborts the model request', async () => {
    await control('/delay', { path: '/v1/chat/completions', ms: 0 });
    const abort = new AbortController();
    const res = await chat(
      { prompt: 'Marrowbank refund rules', file_id: policyFile },
      { signal: abort.signal },
    );
    const reader = readSse(res.body!);
    await reader.next(); // the conversation
    await reader.next(); // the prompt echo
    await reader.next(); // the first answer chunk: the model is streaming now
    abort.abort();
    await reader.return(undefined);
    let completion: Recorded | undefined;
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      [completion] = await recorded('/v1/chat/completions');
      if (completion?.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(completion?.aborted).toBe(true);
  });
});

describe('request checks', () => {
  it('missing or invalid token: 401 Unauthorised', async () => {
    for (const authorization of [undefined, 'Bearer nonsense']) {
      const res = await exports.default.fetch(
        new Request(`${BASE}/modulechat/chat`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(authorization ? { Authorization: authorization } : {}),
          },
          body: JSON.stringify({ prompt: 'x' }),
        }),
      );
      expect(res.status).toBe(401);
      expect(await res.text()).toBe('Unauthorised');
    }
  });

  it('an empty or missing prompt: 400; a too long one: 413', async () => {
    expect((await chat({ prompt: '   ' })).status).toBe(400);
    expect((await chat({})).status).toBe(400);
    const long = await chat({ prompt: 'x'.repeat(4001) });
    expect(long.status).toBe(413);
    expect((await long.json<{ code: string }>()).code).toBe('prompt_too_long');
  });
});

/** A page of varied English prose (no line repeats across pages, so none reads as a footer). */
function proseParagraph(seed: number, sentences: number): string {
  const words = (
    'harbour ledger tariff orchard lantern mill quarry granary tollgate beacon cistern foundry ' +
    'meadow cooper tannery wharf chandler kiln spinney weir causeway almshouse turnpike guild ' +
    'saltpan brewery vestry smithy pinfold dovecote'
  ).split(' ');
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  const out: string[] = [];
  for (let i = 0; i < sentences; i += 1) {
    const pick = () => words[next() % words.length]!;
    out.push(
      `The ${pick()} near the ${pick()} keeps a ${pick()} record for the ${pick()} and the ${pick()} of the ${pick()} district.`,
    );
  }
  return out.join(' ');
}

/** Each marked page of an echoed files prompt: marker → the text under it. */
function markedPages(prompt: string): Map<string, string> {
  const context = prompt.slice(
    prompt.indexOf('<context>\n') + 10,
    prompt.lastIndexOf('\n</context>'),
  );
  const parts = context.split(/^(\[[^\]\n]+ p\. \d+(?: \(excerpts\))?\])\n/m).slice(1);
  const pages = new Map<string, string>();
  for (let i = 0; i < parts.length; i += 2)
    pages.set(parts[i]!, parts[i + 1]!.replace(/\n\n$/, ''));
  return pages;
}

async function pageTexts(fileId: string): Promise<string[]> {
  const res = await exports.default.fetch(
    new Request(`${BASE}/moduleknowledge/list?file_id=${fileId}&with_content=true`, {
      headers: { Authorization: `Bearer ${token}` },
    }),
  );
  const [file] = (await res.json<{ data: { content: string }[] }>()).data;
  return file!.content.split('\f');
}

const messagesOf = (all: Event[]) =>
  all.filter((e) => e.event === 'message').map((e) => e.data as Message);
const answerOf = (all: Event[]) =>
  messagesOf(all)
    .slice(1)
    .map((m) => m.content)
    .join('');

describe('a chat limited to files (issue 13 §1)', () => {
  // Pinned far from every chunk: unscoped, this question is refused by the threshold rule.
  const SUMMARY = 'Summarise this document, please';
  const pinFar = (text: string) => control('/embeddings', { text, vector: unit(0, 0, 0, 1) });

  it('gives the whole text of a file that fits, page-marked, with no similarity refusal', async () => {
    await pinFar(SUMMARY);
    const unscoped = await events(await chat({ prompt: SUMMARY }));
    expect(unscoped.map((e) => e.event)).toEqual(['message', 'refusal']);
    expect(unscoped[0]!.data).toMatchObject({ type: 'error', code: 'no_relevant_knowledge' });

    const all = await events(await chat({ prompt: SUMMARY, file_id: policyFile }));
    const [echo] = messagesOf(all);
    const pages = markedPages(echo!.content);
    const texts = await pageTexts(policyFile);
    expect([...pages.keys()]).toEqual([
      '[charter.pdf p. 1]',
      '[charter.pdf p. 2]',
      '[charter.pdf p. 3]',
    ]);
    expect([...pages.values()]).toEqual(texts);
    expect(all.at(-1)).toMatchObject({
      event: 'done',
      data: { mode: 'full_text', language: 'en' },
    });
    // The model saw the page markers: its points cite them.
    expect(answerOf(all)).toMatch(/^1\. .*\[charter\.pdf p\. 1\]\n2\. .*\[charter\.pdf p\. 2\]/);
  });

  it('lists the cited pages as sources', async () => {
    const all = await events(
      await chat({
        prompt: 'Who is eligible for the Tessaly Housing Subsidy?',
        file_id: policyFile,
      }),
    );
    const answer = answerOf(all);
    expect(answer).toContain('[charter.pdf p. 2]');
    const sources = all.find((e) => e.event === 'sources')!.data as {
      page: number;
      chunk_id: number;
    }[];
    const cited = [...answer.matchAll(/\[charter\.pdf p\. (\d)\]/g)].map((m) => Number(m[1]));
    expect(sources.map((s) => s.page)).toEqual([...new Set(cited)]);
    expect(sources[0]).toEqual({
      file_id: policyFile,
      file_name: 'charter.pdf',
      ...SHARED_COLLECTION,
      page: 2,
      section: null,
      text_source: 'text_layer',
      similarity: null,
      chunk_id: expect.any(Number),
      validity: { status: 'in_force', relations: [] },
      citation: 1,
    });
    // The citation opens the passage of page 2 the answer's sentence was taken from.
    const { chunk_id } = sources[0]!;
    const res = await exports.default.fetch(
      new Request(`${BASE}/moduleknowledge/chunk?id=${chunk_id}`, {
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    const { data: passage } = await res.json<{ data: { page: number; text: string } }>();
    expect(passage.page).toBe(2);
    const sentence = answer.split('\n').find((line) => line.includes('[charter.pdf p. 2]'))!;
    const words = sentence.replace(/\[.*?\]|^\d+\.\s*/g, '').match(/[A-Za-z]{5,}/g)!;
    expect(words.filter((w) => passage.text.includes(w)).length).toBeGreaterThan(words.length / 2);
  });

  it('takes file_id as a comma-joined string or as a list', async () => {
    for (const fileId of [`${policyFile},${probeFile}`, [policyFile, probeFile]]) {
      const all = await events(await chat({ prompt: 'Marrowbank refund rules', file_id: fileId }));
      const pages = markedPages(messagesOf(all)[0]!.content);
      expect([...pages.keys()]).toEqual([
        '[charter.pdf p. 1]',
        '[charter.pdf p. 2]',
        '[charter.pdf p. 3]',
        '[probe.pdf p. 1]',
      ]);
      expect(all.at(-1)!.data).toMatchObject({ mode: 'full_text' });
    }
  });

  it('knowledge’s GetContext (HTTP too): whole pages within max_chars, logged-in users only', async () => {
    const texts = await pageTexts(policyFile);
    const url = `${BASE}/moduleknowledge/context?text=${encodeURIComponent('Tessaly Housing Subsidy')}&file_id=${policyFile}&max_chars=700&top=5`;
    const res = await exports.default.fetch(
      new Request(url, { headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(res.status).toBe(200);
    const { data } = await res.json<{
      data: {
        mode: string;
        total_chars: number;
        files: { id: string }[];
        pages: { page: number; text: string; excerpt: boolean; similarity: number | null }[];
      };
    }>();
    expect(data.mode).toBe('retrieval');
    expect(data.total_chars).toBe(texts.join('').length);
    expect(data.files.map((f) => f.id)).toEqual([policyFile]);
    expect(data.pages[0]).toMatchObject({ page: 2, excerpt: false, text: texts[1] });
    expect(data.pages.reduce((n, p) => n + p.text.length, 0)).toBeLessThanOrEqual(700);
    for (const page of data.pages.filter((p) => !p.excerpt))
      expect(page.text).toBe(texts[page.page - 1]);

    const refused = await exports.default.fetch(new Request(url));
    expect(refused.status).toBe(401);
    const empty = await exports.default.fetch(
      new Request(`${BASE}/moduleknowledge/context?text=x&file_id=`, {
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    expect(empty.status).toBe(400);
  });

  it('files that do not exist: one error message with its code', async () => {
    const all = await events(await chat({ prompt: SUMMARY, file_id: crypto.randomUUID() }));
    expect(all).toEqual([
      {
        event: 'message',
        data: {
          content: DEFAULT_ERROR_TEXTS.en.files_unavailable,
          request_id: expect.any(String),
          type: 'error',
          code: 'files_unavailable',
        },
      },
    ]);
  });

  it('files longer than CHAT_CONTEXT_CHARS: whole pages of the best chunks, the mode said', async () => {
    // 24 pages of about 1,400 characters: more than the 24,000 the test stack allows.
    const pagesIn = Array.from({ length: 24 }, (_, i) =>
      i === 8
        ? `${proseParagraph(i + 1, 10)} The Quillford ferry levy is seventeen crowns per crossing. ${proseParagraph(99, 8)}`
        : proseParagraph(i + 1, 19),
    );
    const longFile = await upload(pagesIn, 'long.pdf');
    const texts = await pageTexts(longFile);
    expect(texts.join('').length).toBeGreaterThan(24_000);

    const all = await events(
      await chat({ prompt: 'What is the Quillford ferry levy?', file_id: longFile }),
    );
    expect(all.at(-1)).toMatchObject({ event: 'done', data: { mode: 'file_retrieval' } });
    const pages = markedPages(messagesOf(all)[0]!.content);
    expect(pages.has('[long.pdf p. 9]')).toBe(true);
    expect(pages.size).toBeLessThan(24);
    let total = 0;
    for (const [marker, text] of pages) {
      // Never cut mid-page: a page is given whole, or (marked) as its retrieved chunks, each whole.
      const page = Number(/p\. (\d+)/.exec(marker)![1]);
      if (marker.endsWith('(excerpts)]')) {
        for (const piece of text.split('\n…\n')) expect(texts[page - 1]).toContain(piece);
      } else {
        expect(text).toBe(texts[page - 1]);
      }
      total += [...text].length;
    }
    expect(total).toBeLessThanOrEqual(24_000);
    expect(answerOf(all)).toContain('seventeen crowns');
  });
});

describe('the original’s query parameters (issue 13 §4)', () => {
  const query = async (params: string) => {
    const res = await exports.default.fetch(
      new Request(
        `${BASE}/moduleknowledge/query?text=${encodeURIComponent(PROBE_TEXT)}&${params}`,
        {
          headers: { Authorization: `Bearer ${token}` },
        },
      ),
    );
    expect(res.status).toBe(200);
    return (await res.json<{ data: { file_id: string; similarity: number }[] }>()).data;
  };

  it('retrieve_limit is top; similarity_threshold keeps results at least that similar', async () => {
    expect(await query('retrieve_limit=2')).toHaveLength(2);
    expect(await query('top=5&retrieve_limit=1')).toHaveLength(1);
    // The probe's pinned vector is its own text's: similarity 1; nothing else comes near.
    // (At the spec's breadth, 10: an isolated pinned vector is an approximate index's worst case.)
    const kept = await query('retrieve_limit=10&similarity_threshold=0.99');
    expect(kept).toEqual([expect.objectContaining({ file_id: probeFile })]);
    expect(kept[0]!.similarity).toBeGreaterThanOrEqual(0.99);
    const res = await exports.default.fetch(
      new Request(`${BASE}/moduleknowledge/query?text=x&similarity_threshold=2`, {
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    expect(res.status).toBe(400);
  });
});

describe('document text never reaches a client as live markup (issue 13 §5)', () => {
  it('the echo and the answer carry no tag; the model still gets the text as it is', async () => {
    const attack = '<img src=x onerror=alert(document.cookie)>';
    const file = await upload(
      [
        `The Pellmore toll is 4 crowns. ${attack} The Pellmore toll is paid at the gate. ${crypto.randomUUID()}`,
      ],
      'hostile.pdf',
    );
    const all = await events(
      await chat({ prompt: 'How much is the Pellmore toll?', file_id: file }),
    );
    const stream = messagesOf(all)
      .map((m) => m.content)
      .join('');
    expect(stream).toContain('Pellmore');
    // No tag but the echo's own delimiter lines.
    expect(stream.replace(/^<\/?context>$/gm, '')).not.toMatch(/<[a-z/!?]/i);
    expect(stream).toContain('＜img src=x onerror=alert(document.cookie)>');
    const [request] = await recorded('/v1/chat/completions');
    expect(JSON.stringify(request!.body)).toContain(attack);
  });
});

describe('the question’s language (issue 13 §2)', () => {
  let chineseFile = '';
  beforeAll(async () => {
    chineseFile = await upload(
      CHINESE_POLICY_FIXTURE.pages.map((p) => `${p}\n对话测试 ${crypto.randomUUID()}`),
      '青禾政策.pdf',
    );
  });

  it('a Chinese question the knowledge base cannot answer: the Chinese refusal', async () => {
    const prompt = '火星基地的氧气配额是多少？';
    await control('/embeddings', { text: prompt, vector: unit(0, 0, 0, 1) });
    const all = await events(await chat({ prompt }));
    expect(all[0]).toEqual({
      event: 'message',
      data: {
        content: '非常抱歉，未能检索到相关信息，无法回答',
        request_id: expect.any(String),
        type: 'error',
        code: 'no_relevant_knowledge',
      },
    });
    expect(all.slice(1).map((e) => e.event)).toEqual(['refusal']);
  });

  it('an English one: the English refusal', async () => {
    const prompt = 'What is the oxygen quota of the Mars base?';
    await control('/embeddings', { text: prompt, vector: unit(0, 0, 0, 1) });
    const all = await events(await chat({ prompt }));
    expect(all[0]).toEqual({
      event: 'message',
      data: {
        content: 'Sorry, no relevant information was found, so no answer can be given.',
        request_id: expect.any(String),
        type: 'error',
        code: 'no_relevant_knowledge',
      },
    });
    expect(all.slice(1).map((e) => e.event)).toEqual(['refusal']);
  });

  it('a Chinese question gets a Chinese answer, asked for in the system message', async () => {
    const all = await events(
      await chat({ prompt: '住房补贴的标准是多少？', file_id: chineseFile }),
    );
    const answer = answerOf(all);
    expect(answer.startsWith(`${CHINESE_LEAD_IN}\n1. `)).toBe(true);
    expect(answer).toContain('每月1200元');
    expect(answer).toContain('[青禾政策.pdf p. 1]');
    expect(all.at(-1)!.data).toMatchObject({ mode: 'full_text', language: 'zh' });
    const [request] = await recorded('/v1/chat/completions');
    const messages = (request!.body as { messages: { content: string }[] }).messages;
    expect(messages[0]!.content).toBe(systemMessage('zh'));
    expect(messages[0]!.content).toMatch(/Answer in Chinese/);
    expect(messages[1]!.content).toMatch(/Answer in Chinese/);
  });

  it('“总结这份文件的主要措施” over a chosen file: answered in Chinese, never refused', async () => {
    const prompt = '总结这份文件的主要措施';
    await control('/embeddings', { text: prompt, vector: unit(0, 0, 0, 1) });
    const unscoped = await events(await chat({ prompt }));
    expect(unscoped[0]!.data).toMatchObject({ type: 'error', code: 'no_relevant_knowledge' });
    const all = await events(await chat({ prompt, file_id: chineseFile }));
    expect(all.at(-1)).toMatchObject({
      event: 'done',
      data: { mode: 'full_text', language: 'zh' },
    });
    // Points citing pages, in Chinese.
    const answer = answerOf(all);
    expect(answer.startsWith(`${CHINESE_LEAD_IN}\n1. `)).toBe(true);
    expect(answer).toMatch(/^1\. .*\[青禾政策\.pdf p\. 1\]$/m);
    expect(answer).toContain('[青禾政策.pdf p. 2]');
  });

  it('an English question about a Chinese file: in English', async () => {
    const all = await events(
      await chat({ prompt: 'What does the housing subsidy pay?', file_id: chineseFile }),
    );
    expect(answerOf(all)).not.toContain(CHINESE_LEAD_IN);
    expect(all.at(-1)!.data).toMatchObject({ language: 'en' });
  });

  it('error messages follow the question’s language and carry a stable code', async () => {
    await control('/fail', { path: '/v1/chat/completions', times: 5, status: 503 });
    const failed = await events(
      await chat({ prompt: '住房补贴的标准是多少？', file_id: chineseFile }),
    );
    expect(failed.at(-1)!.data).toEqual({
      content: '非常抱歉，回答未能完成，请重试',
      request_id: expect.any(String),
      type: 'error',
      code: 'model_failed',
    });
    // Knowledge failing, in Chinese: answer.test.ts (failing the shared model's embeddings
    // here would fail other files' uploads running at the same time).
  });
});
