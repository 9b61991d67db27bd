import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createLogger } from '#shared/log/logger';
import { answer, startRetrieval } from './answer';
import { chatConfig } from '../config';

// A model that answers with fixed text, in one streamed chunk.
const modelSaying = (text: string) =>
  ({
    chat: {
      completions: {
        create: () =>
          Promise.resolve(
            (async function* () {
              yield { choices: [{ delta: { content: text } }] };
            })(),
          ),
      },
    },
  }) as unknown as OpenAI;

const result = (n: number, name: string, validity: object) => ({
  id: n,
  similarity: 0.9,
  content: `第${n}条 补贴标准为每人每月500元。`,
  file_id: `00000000-0000-4000-8000-00000000000${n}`,
  file_name: name,
  collection_id: '00000000-0000-0000-0000-000000000000',
  collection_name: 'Shared',
  page: 1,
  section: null,
  text_source: null,
  found_by: ['vector' as const],
  ranks: { vector: n },
  validity,
});

describe('answer(): a cited document no longer in force', () => {
  it('adds a note as one more content message, and each source carries validity', async () => {
    const repealed = {
      status: 'repealed',
      relations: [
        {
          id: 1,
          relation: 'repealed_by',
          file_id: '00000000-0000-4000-8000-000000000001',
          file_name: '新通知.pdf',
          doc_number: '川办规〔2025〕6号',
          title: null,
          origin: 'extracted',
        },
      ],
    };
    const results = [
      result(1, '新通知.pdf', { status: 'in_force', relations: [] }),
      result(2, '旧通知.pdf', repealed),
    ];
    const out: unknown[] = [];
    for await (const item of answer(
      {
        prompt: '补贴标准是多少？',
        retrieval: { scope: 'all', results: Promise.resolve(results) } as never,
        requestId: 'r1',
        signal: new AbortController().signal,
        log: createLogger({ module: 'test' }, 'error'),
      },
      {
        model: modelSaying('补贴标准为每人每月500元[1][2]。'),
        chatModel: 'm',
        settings: { ...chatConfig({}).answer, echoPrompt: false },
      },
    )) {
      out.push(item);
    }
    const contents = out
      .filter(
        (x): x is { type: string; content: string } => (x as { type?: string }).type === 'content',
      )
      .map((x) => x.content);
    expect(contents).toEqual([
      '补贴标准为每人每月500元[1][2]。',
      '\n\n> 注意：[2] 《旧通知》已被川办规〔2025〕6号文件废止。',
    ]);
    const sources = out.find((x) => (x as { event?: string }).event === 'sources') as {
      data: { validity?: unknown }[];
    };
    expect(sources.data.map((s) => s.validity)).toEqual([
      { status: 'in_force', relations: [] },
      repealed,
    ]);
  });
});

describe('startRetrieval(): filters', () => {
  it('passes the filters to knowledge’s query, not to a chat limited to files', () => {
    const calls: unknown[] = [];
    const knowledge = {
      GetQuery: (params: unknown) => (calls.push(['query', params]), Promise.resolve([])),
      GetContext: (params: unknown) => (calls.push(['context', params]), Promise.resolve({})),
    } as never;
    const settings = { contextChars: 1000, filesTop: 5 };
    const filters = { issuer: '杭州', in_force: true };
    startRetrieval(knowledge, 'q', undefined, ['c1'], settings, filters);
    startRetrieval(knowledge, 'q', ['f1'], undefined, settings, filters);
    expect(calls).toEqual([
      ['query', { text: 'q', top: 10, collection_id: 'c1', issuer: '杭州', in_force: true }],
      ['context', { text: 'q', file_id: 'f1', max_chars: 1000, top: 5 }],
    ]);
  });
});
