import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { AppError, notFound } from '#shared/errors/app-error';
import { createLogger } from '#shared/log/logger';
import { answer, type Retrieval } from '../answer/answer';
import { chatConfig } from '../config';
import { startOutcome } from '../answer/turn';
import { pieces } from './chunks';

const FILE = '11111111-1111-4111-8111-111111111111';
const COLLECTION = '22222222-2222-4222-8222-222222222222';

const result = (similarity: number, page: number) => ({
  id: page,
  similarity,
  content: `Text of page ${page}`,
  file_id: FILE,
  file_name: 'a.pdf',
  collection_id: COLLECTION,
  collection_name: 'Shared',
  page,
  section: null as string | null,
  text_source: 'text_layer' as const,
  found_by: ['vector' as const],
  ranks: { vector: page },
});

const source = (similarity: number, page: number) => ({
  file_id: FILE,
  file_name: 'a.pdf',
  collection_id: COLLECTION,
  collection_name: 'Shared',
  page,
  section: null,
  text_source: 'text_layer',
  similarity,
  chunk_id: page,
  citation: null,
});

const retrieved = (results: ReturnType<typeof result>[] | Error): Retrieval => {
  const promise = results instanceof Error ? Promise.reject(results) : Promise.resolve(results);
  promise.catch(() => undefined);
  return { scope: 'all', results: promise };
};

/** A model that streams `deltas` (then usage), or breaks after `failAfter` of them. */
function model(deltas: string[], failAfter?: number): OpenAI {
  const create = async () =>
    (async function* () {
      for (const [i, content] of deltas.entries()) {
        if (i === failAfter) throw new Error('model broke');
        yield { choices: [{ delta: { content } }] };
      }
      yield { choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } };
    })();
  return { chat: { completions: { create } } } as unknown as OpenAI;
}

/** What pieces() makes of answer() for one question: the pieces, then what was thrown. */
async function read(prompt: string, retrieval: Retrieval, chat: OpenAI = model([])) {
  const outcome = startOutcome('en');
  const items = answer(
    {
      prompt,
      retrieval,
      outcome,
      requestId: 'r1',
      signal: new AbortController().signal,
      log: createLogger({ module: 'test' }, 'error'),
    },
    { model: chat, chatModel: 'm', settings: { ...chatConfig({}).answer, echoPrompt: false } },
  );
  const out: unknown[] = [];
  try {
    for await (const piece of pieces(items, outcome, 'r1')) out.push(piece);
  } catch (err) {
    out.push(err);
  }
  return out;
}

describe('pieces(): the answer text as streamed, then the end the outcome holds', () => {
  it('an answer: its neutralised text, then its sources and usage', async () => {
    const out = await read(
      'What is it?',
      retrieved([result(0.9, 1), result(0.2, 2)]),
      model(['It is ', '<b>this</b>']),
    );
    expect(out).toEqual([
      { kind: 'text', text: 'It is ' },
      { kind: 'text', text: '＜b>this＜/b>' },
      {
        kind: 'end',
        sources: [source(0.9, 1)],
        // Cites nothing: checked against every passage; it has no figures and no content words.
        support: [{ sentence_index: 0, text: 'It is this', cited: [], supported: true }],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
        refusal: undefined,
      },
    ]);
  });

  it('a similarity refusal: its text, then why, with the code last', async () => {
    const [text, end] = await read('What is it?', retrieved([result(0.3, 1)]));
    expect(text).toEqual({
      kind: 'text',
      text: 'Sorry, no relevant information was found, so no answer can be given.',
    });
    expect(end).toMatchObject({ kind: 'end', sources: [], usage: { total_tokens: 0 } });
    const refusal = (end as { refusal: object }).refusal;
    expect(refusal).toEqual({
      request_id: 'r1',
      best_similarity: 0.3,
      threshold: 0.5,
      candidates: [source(0.3, 1)],
      code: 'no_relevant_knowledge',
    });
    // The wire's key order: the refusal event's fields, then the code.
    expect(Object.keys(refusal)).toEqual([
      'request_id',
      'best_similarity',
      'threshold',
      'candidates',
      'code',
    ]);
  });

  it('a refusal with no explanation: the code and the request id', async () => {
    const unreadable = retrieved(notFound('collection'));
    const [, end] = await read('What is it?', unreadable);
    const refusal = (end as { refusal: object }).refusal;
    expect(refusal).toEqual({ code: 'collections_unavailable', request_id: 'r1' });
    expect(Object.keys(refusal)).toEqual(['code', 'request_id']);
  });

  it('a failure is thrown as AppError in the question’s language, after the text so far', async () => {
    const down = await read('这是什么？', retrieved(new Error('down')));
    expect(down).toEqual([expect.any(AppError)]);
    expect(down[0]).toMatchObject({ status: 503, code: 'knowledge_unavailable' });
    expect((down[0] as AppError).message).toMatch(/^非常抱歉/);

    const broke = await read('What is it?', retrieved([result(0.9, 1)]), model(['a', 'b'], 1));
    expect(broke).toEqual([{ kind: 'text', text: 'a' }, expect.any(AppError)]);
    expect(broke[1]).toMatchObject({ status: 502, code: 'model_failed' });
  });
});
