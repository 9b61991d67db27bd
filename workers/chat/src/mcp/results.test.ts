import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors/app-error';
import { answerResult, errorResult, filesResult } from './results';

const FILE = '11111111-1111-4111-8111-111111111111';
const COLLECTION = '22222222-2222-4222-8222-222222222222';

const source = (page: number, citation: number | null, chunk: number | null = page * 10) => ({
  file_id: FILE,
  file_name: 'a.pdf',
  collection_id: COLLECTION,
  collection_name: 'C',
  page,
  similarity: 0.8,
  chunk_id: chunk,
  citation,
});

const completion = (extra: object) => ({
  id: 'chatcmpl-x',
  object: 'chat.completion' as const,
  created: 1,
  model: 'kbchat',
  choices: [
    {
      index: 0,
      message: { role: 'assistant' as const, content: 'Refunds take 30 days [2].', refusal: null },
      logprobs: null,
      finish_reason: 'stop' as const,
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
  sources: [],
  ...extra,
});

describe('answerResult', () => {
  it('cites the sources the answer cites, numbered as [n] in the answer', () => {
    const result = answerResult(
      completion({ sources: [source(1, null), source(2, 1), source(3, null, null)] }),
    );
    expect(result.isError).toBeUndefined();
    const structured = result.structuredContent as { citations: Record<string, unknown>[] };
    expect(structured.citations).toEqual([
      expect.objectContaining({ number: 2, page: 2, chunk_id: 20, file_id: FILE }),
    ]);
    expect((result.content[0] as { text: string }).text).toBe(
      `Refunds take 30 days [2].\n\nSources:\n[2] a.pdf, p. 2 (chunk 20) — file ${FILE}`,
    );
  });

  it('lists every source given when the answer cites none; a whole page has no chunk', () => {
    const result = answerResult(completion({ sources: [source(1, null), source(3, null, null)] }));
    const structured = result.structuredContent as { citations: { number: number }[] };
    expect(structured.citations.map((c) => c.number)).toEqual([1, 2]);
    expect((result.content[0] as { text: string }).text).toContain(`[2] a.pdf, p. 3 — file`);
  });

  it('a refusal is an error result carrying the refusal text and why', () => {
    const result = answerResult(
      completion({
        kbchat_refusal: { code: 'no_relevant_knowledge', request_id: 'r', threshold: 0.5 },
      }),
    );
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe('Refunds take 30 days [2].');
    expect(result.structuredContent).toMatchObject({
      refusal: { code: 'no_relevant_knowledge', threshold: 0.5 },
    });
  });
});

describe('filesResult', () => {
  const file = (n: number) =>
    ({
      id: FILE,
      name: `f${n}.pdf`,
      collection: { id: COLLECTION, name: 'C' },
      status: 'ready',
      pages: n,
      format: 'pdf',
      created_at: '2026-01-01',
    }) as Parameters<typeof filesResult>[0][number];

  it('gives the page asked for and the total', () => {
    const files = Array.from({ length: 5 }, (_, i) => file(i + 1));
    const second = filesResult(files, 2, 2).structuredContent as {
      files: { name: string; metadata: unknown }[];
      total: number;
    };
    expect(second.files.map((f) => f.name)).toEqual(['f3.pdf', 'f4.pdf']);
    expect(second.total).toBe(5);
    expect(second.files[0]!.metadata).toBeNull();
    const beyond = filesResult(files, 4, 2).structuredContent as { files: unknown[] };
    expect(beyond.files).toEqual([]);
  });
});

describe('errorResult', () => {
  it('tells a refusal of the catalogue with its code and status', () => {
    const result = errorResult(new AppError('not_found', { detail: 'No such collection.' }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: { status: 404, code: 'not_found', message: 'No such collection.' },
    });
  });

  it('carries the problem’s own members: when a quota resets', () => {
    const result = errorResult(
      new AppError('quota_exceeded', { members: { resets_at: '2026-11-27T00:00:00Z' } }),
    );
    expect(result.structuredContent).toMatchObject({
      error: { status: 429, code: 'quota_exceeded', resets_at: '2026-11-27T00:00:00Z' },
    });
  });

  it('tells nothing of an unforeseen failure', () => {
    const result = errorResult(new Error('connection to 10.0.0.7:5432 refused, password=x'));
    expect(JSON.stringify(result)).not.toContain('10.0.0.7');
    expect(result.structuredContent).toMatchObject({
      error: { status: 500, code: 'internal_error' },
    });
  });
});
