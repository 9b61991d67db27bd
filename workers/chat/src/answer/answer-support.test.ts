import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { SseEvent } from '#shared/service';
import { createLogger } from '#shared/log/logger';
import { answer, type Retrieval } from './answer';
import { chatConfig } from '../config';
import { startOutcome } from './turn';

// answer()'s end: the sources' citation order and passage ids, and each sentence's support,
// in `done` and in the outcome (what the turn stores), in both modes.

const FILE = '11111111-1111-4111-8111-111111111111';
const COLLECTION = { id: '00000000-0000-0000-0000-000000000000', name: 'Shared' };

const model = (text: string) =>
  ({
    chat: {
      completions: {
        create: async () =>
          (async function* () {
            yield { choices: [{ delta: { content: text } }] };
          })(),
      },
    },
  }) as unknown as OpenAI;

async function run(retrieval: Retrieval, text: string) {
  const outcome = startOutcome('zh');
  const events = new Map<string, unknown>();
  for await (const item of answer(
    {
      prompt: '补贴多少？',
      retrieval,
      outcome,
      requestId: 'r1',
      signal: new AbortController().signal,
      log: createLogger({ module: 'test' }, 'error'),
    },
    {
      model: model(text),
      chatModel: 'm',
      settings: { ...chatConfig({}).answer, echoPrompt: false },
    },
  )) {
    if (item instanceof SseEvent) events.set(item.event, item.data);
  }
  return {
    outcome,
    sources: events.get('sources') as object[],
    done: events.get('done') as { support: unknown },
  };
}

const result = (id: number, content: string) => ({
  id,
  similarity: 0.9,
  content,
  file_id: FILE,
  file_name: 'a.pdf',
  collection_id: COLLECTION.id,
  collection_name: COLLECTION.name,
  page: id,
  section: null,
  text_source: 'text_layer' as const,
  found_by: ['vector' as const],
  ranks: { vector: id },
});

describe('answer(): citations and support', () => {
  it('retrieval: sources in prompt order with their chunk and first-citation order', async () => {
    const results = [
      result(11, '纯电动乘用车每辆补贴5000元。'),
      result(12, '插电式混合动力乘用车每辆补贴3000元。'),
    ];
    const retrieval: Retrieval = { scope: 'all', results: Promise.resolve(results) };
    const { outcome, sources, done } = await run(
      retrieval,
      '1. 插电式混合动力乘用车每辆补贴3000元[2]。\n2. 纯电动乘用车每辆补贴6000元[1]。',
    );
    expect(sources.map((s) => ({ ...s }))).toMatchObject([
      { chunk_id: 11, citation: 2 },
      { chunk_id: 12, citation: 1 },
    ]);
    expect(done.support).toEqual([
      {
        sentence_index: 0,
        text: '插电式混合动力乘用车每辆补贴3000元。',
        cited: [2],
        supported: true,
      },
      {
        sentence_index: 1,
        text: '纯电动乘用车每辆补贴6000元。',
        cited: [1],
        supported: false,
        missing: ['6000元'],
      },
    ]);
    expect(outcome.support).toEqual(done.support);
  });

  it('files: the cited pages in citation order, a sentence citing them by their place', async () => {
    const page = (n: number, text: string) => ({
      file_id: FILE,
      file_name: 'a.pdf',
      page: n,
      section: null,
      text,
      similarity: null,
      chunk_id: n === 2 ? 22 : undefined,
      excerpt: false,
    });
    const context = {
      mode: 'full' as const,
      files: [{ id: FILE, name: 'a.pdf', pages: 2, collection: COLLECTION }],
      total_chars: 40,
      pages: [
        page(1, '纯电动乘用车每辆补贴5000元。'),
        page(2, '插电式混合动力乘用车每辆补贴3000元。'),
      ],
    };
    const { sources, done } = await run(
      { scope: 'files', context: Promise.resolve(context) },
      '1. 插电式混合动力乘用车每辆补贴3000元 [a.pdf p. 2]',
    );
    expect(sources).toMatchObject([{ page: 2, chunk_id: 22, citation: 1 }]);
    expect(done.support).toEqual([
      {
        sentence_index: 0,
        text: '插电式混合动力乘用车每辆补贴3000元',
        cited: [1],
        supported: true,
      },
    ]);
  });

  it('files: a cited page opens at the passage the sentence came from; validity is told', async () => {
    const text = '第一条 纯电动乘用车每辆补贴5000元。第二条 插电式混合动力乘用车每辆补贴3000元。';
    const second = text.indexOf('第二条');
    const repealed = { status: 'repealed' as const, relations: [] };
    const context = {
      mode: 'full' as const,
      files: [{ id: FILE, name: 'a.pdf', pages: 1, collection: COLLECTION, validity: repealed }],
      total_chars: text.length,
      pages: [
        {
          file_id: FILE,
          file_name: 'a.pdf',
          page: 1,
          section: null,
          text,
          similarity: null,
          chunk_id: null,
          excerpt: false,
          passages: [
            { chunk_id: 31, start: 0, end: second },
            { chunk_id: 32, start: second, end: text.length },
          ],
        },
      ],
    };
    const { sources, outcome } = await run(
      { scope: 'files', context: Promise.resolve(context) },
      '插电式混合动力乘用车每辆补贴3000元。[a.pdf p. 1]',
    );
    expect(sources).toMatchObject([{ page: 1, chunk_id: 32, citation: 1, validity: repealed }]);
    // The note a repealed source brings, in the stored answer as in the stream.
    // Pages are cited by marker here: the note names the document, with no number to follow.
    expect(outcome.answer).toContain('\n\n> 注意：《a》已废止。');
  });
});
