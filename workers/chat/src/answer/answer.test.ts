import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createLogger } from '#shared/log/logger';
import { answer, type Retrieval } from './answer';
import { chatConfig } from '../config';

// The paths that end before the model is asked: no model, no knowledge, only answer().
const never = {} as OpenAI;

async function run(prompt: string, retrieval: Retrieval, env: object = {}) {
  const out: unknown[] = [];
  const stream = answer(
    {
      prompt,
      retrieval,
      requestId: 'r1',
      signal: new AbortController().signal,
      log: createLogger({ module: 'test' }, 'error'),
    },
    { model: never, chatModel: 'm', settings: chatConfig(env).answer },
  );
  for await (const item of stream) out.push(item);
  return out;
}

const failing = () => {
  const results = Promise.reject(new Error('knowledge down'));
  results.catch(() => undefined);
  return { scope: 'all' as const, results };
};

describe('answer(): texts in the question’s language, with a stable code', () => {
  it('knowledge failing', async () => {
    expect(await run('住房补贴是多少？', failing())).toEqual([
      {
        content: '非常抱歉，知识库暂时不可用',
        request_id: 'r1',
        type: 'error',
        code: 'knowledge_unavailable',
      },
    ]);
    expect(await run('How much is the subsidy?', failing())).toEqual([
      {
        content: 'Sorry, the knowledge base is unavailable right now.',
        request_id: 'r1',
        type: 'error',
        code: 'knowledge_unavailable',
      },
    ]);
  });

  it('texts set by CHAT_MESSAGES', async () => {
    const env = { CHAT_MESSAGES: JSON.stringify({ zh: { no_relevant_knowledge: '没有找到。' } }) };
    const nothing = { scope: 'all' as const, results: Promise.resolve([]) };
    expect(await run('住房补贴是多少？', nothing, env)).toEqual([
      { content: '没有找到。', request_id: 'r1', type: 'error', code: 'no_relevant_knowledge' },
      // Nothing retrieved at all: the refusal event says so.
      expect.objectContaining({
        event: 'refusal',
        data: { request_id: 'r1', best_similarity: null, threshold: 0.5, candidates: [] },
      }),
    ]);
  });

  it('files chosen but none ready; ready but nothing fits the budget', async () => {
    const context = (files: number, pages: number) => ({
      scope: 'files' as const,
      context: Promise.resolve({
        mode: 'retrieval' as const,
        files: Array.from({ length: files }, () => ({
          id: crypto.randomUUID(),
          name: 'a.pdf',
          pages: 1,
          collection: { id: crypto.randomUUID(), name: 'Shared' },
        })),
        total_chars: 100_000,
        pages: Array.from({ length: pages }, () => ({
          file_id: crypto.randomUUID(),
          file_name: 'a.pdf',
          page: 1,
          section: null,
          text: 'x',
          similarity: 0.3,
          excerpt: false,
        })),
      }),
    });
    expect(await run('总结', context(0, 0))).toEqual([
      expect.objectContaining({
        type: 'error',
        code: 'files_unavailable',
        content: expect.stringMatching(/^非常抱歉/),
      }),
    ]);
    expect(await run('Summarise', context(1, 0))).toEqual([
      expect.objectContaining({ type: 'error', code: 'no_relevant_knowledge' }),
    ]);
  });
});
