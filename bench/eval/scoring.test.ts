import { describe, expect, it } from 'vitest';
import type { ServedResult } from './knowledge-api.ts';
import { outcomeOf, scoreMode, type EvalItem } from './scoring.ts';

const served = (file_name: string, page: number, similarity?: number): ServedResult =>
  ({
    id: page,
    content: '',
    file_id: `id-${file_name}`,
    file_name,
    page,
    similarity,
  }) as ServedResult;

const item = (id: string, language: string, category: string, file?: string): EvalItem => ({
  id,
  language,
  category,
  question: `${id}?`,
  expected: file ? [{ file_name: file, pages: [2] }] : [],
});

describe('outcomeOf', () => {
  it('ranks the expected page and applies the chat rule', () => {
    const outcome = outcomeOf(
      item('a', 'en', 'plain', 'a.pdf'),
      [served('a.pdf', 1, 0.55), served('a.pdf', 2, 0.52)],
      0.5,
      10,
    );
    expect(outcome).toEqual({ answerable: true, rank: 2, refused: false, best_similarity: 0.55 });
  });

  it('ignores results without a similarity (keyword-only hybrid results)', () => {
    const outcome = outcomeOf(
      item('b', 'en', 'no_answer'),
      [served('a.pdf', 2), served('a.pdf', 1, 0.45)],
      0.5,
      10,
    );
    expect(outcome).toEqual({
      answerable: false,
      rank: undefined,
      refused: true,
      best_similarity: 0.45,
    });
    expect(
      outcomeOf(item('c', 'en', 'no_answer'), [served('a.pdf', 2)], 0.5, 10).best_similarity,
    ).toBeNull();
  });
});

describe('scoreMode', () => {
  it('summarises overall, per category and per language', () => {
    const items = [
      item('a', 'en', 'plain', 'a.pdf'),
      item('b', 'zh', 'plain', 'a.pdf'),
      item('c', 'zh', 'no_answer'),
    ];
    const outcomes = [
      { answerable: true, rank: 1, refused: false, best_similarity: 0.6 },
      { answerable: true, rank: 4, refused: false, best_similarity: 0.55 },
      { answerable: false, rank: undefined, refused: true, best_similarity: 0.45 },
    ];
    const scores = scoreMode(items, outcomes);
    expect(scores.overall.mrr_at_10).toBe((1 + 1 / 4) / 2);
    expect(Object.keys(scores.by_category)).toEqual(['plain', 'no_answer']);
    expect(scores.by_language.zh!.hit_at_1).toBe(0);
    expect(scores.by_language.zh!.refusal.recall).toBe(1);
    expect(scores.by_language.en!.refusal.recall).toBeNull();
  });
});
