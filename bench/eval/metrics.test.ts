import { describe, expect, it } from 'vitest';
import {
  firstHitRank,
  hitAtK,
  isHit,
  reciprocalRank,
  refusalScores,
  refuses,
  summarise,
  thresholdSweep,
  type QuestionOutcome,
  type RankedResult,
} from './metrics.ts';

const r = (file_name: string, page: number, similarity = 0.6): RankedResult => ({
  file_id: `id-${file_name}`,
  file_name,
  page,
  similarity,
});

describe('hits and ranks', () => {
  const results = [r('a.pdf', 1), r('b.pdf', 2), r('a.pdf', 3), r('c.pdf', 1)];

  it('matches by file name and page, by file id, or by file alone', () => {
    expect(isHit(r('a.pdf', 3), [{ file_name: 'a.pdf', pages: [3] }])).toBe(true);
    expect(isHit(r('a.pdf', 2), [{ file_name: 'a.pdf', pages: [3] }])).toBe(false);
    expect(isHit(r('a.pdf', 2), [{ file_id: 'id-a.pdf' }])).toBe(true);
    expect(isHit(r('a.pdf', 2), [{ file_id: 'id-b.pdf' }])).toBe(false);
    expect(isHit(r('b.pdf', 9), [{ file_name: 'a.pdf' }, { file_name: 'b.pdf' }])).toBe(true);
  });

  it('ranks the first hit from 1, within the first k only', () => {
    expect(firstHitRank(results, [{ file_name: 'a.pdf', pages: [3] }], 10)).toBe(3);
    expect(firstHitRank(results, [{ file_name: 'a.pdf', pages: [1, 3] }], 10)).toBe(1);
    expect(firstHitRank(results, [{ file_name: 'c.pdf', pages: [1] }], 3)).toBeUndefined();
    expect(firstHitRank([], [{ file_name: 'a.pdf' }], 10)).toBeUndefined();
  });

  it('hit@k and reciprocal rank by hand', () => {
    expect([hitAtK(1, 1), hitAtK(2, 1), hitAtK(5, 5), hitAtK(6, 5), hitAtK(undefined, 5)]).toEqual([
      1, 0, 1, 0, 0,
    ]);
    expect(reciprocalRank(1, 10)).toBe(1);
    expect(reciprocalRank(4, 10)).toBe(0.25);
    expect(reciprocalRank(11, 10)).toBe(0);
    expect(reciprocalRank(undefined, 10)).toBe(0);
  });
});

describe('refusals', () => {
  it('refuses when no result reaches the threshold, which is inclusive', () => {
    expect(refuses([], 0.5)).toBe(true);
    expect(refuses([{ similarity: 0.49 }, { similarity: 0.3 }], 0.5)).toBe(true);
    expect(refuses([{ similarity: 0.5 }], 0.5)).toBe(false);
  });

  it('scores refusing as the positive class', () => {
    // 2 right refusals, 1 answerable refused, 1 no_answer answered, 3 answered rightly.
    const scores = refusalScores([
      { shouldRefuse: true, refused: true },
      { shouldRefuse: true, refused: true },
      { shouldRefuse: false, refused: true },
      { shouldRefuse: true, refused: false },
      { shouldRefuse: false, refused: false },
      { shouldRefuse: false, refused: false },
      { shouldRefuse: false, refused: false },
    ]);
    expect(scores).toEqual({
      true_refusals: 2,
      false_refusals: 1,
      missed_refusals: 1,
      answered: 3,
      precision: 2 / 3,
      recall: 2 / 3,
    });
  });

  it('leaves precision and recall undefined (null) when there is nothing to divide', () => {
    const scores = refusalScores([{ shouldRefuse: false, refused: false }]);
    expect(scores.precision).toBeNull();
    expect(scores.recall).toBeNull();
  });
});

describe('summaries', () => {
  const outcomes: QuestionOutcome[] = [
    { answerable: true, rank: 1, refused: false, best_similarity: 0.7 },
    { answerable: true, rank: 3, refused: false, best_similarity: 0.6 },
    { answerable: true, rank: undefined, refused: true, best_similarity: 0.45 },
    { answerable: true, rank: 7, refused: false, best_similarity: 0.55 },
    { answerable: false, rank: undefined, refused: true, best_similarity: 0.48 },
    { answerable: false, rank: undefined, refused: false, best_similarity: 0.52 },
  ];

  it('averages hit@1, hit@5 and MRR@10 over answerable questions only', () => {
    const s = summarise(outcomes);
    expect(s.questions).toBe(6);
    expect(s.answerable).toBe(4);
    expect(s.hit_at_1).toBe(1 / 4);
    expect(s.hit_at_5).toBe(2 / 4);
    expect(s.mrr_at_10).toBeCloseTo((1 + 1 / 3 + 0 + 1 / 7) / 4, 12);
    expect(s.refusal.precision).toBe(1 / 2);
    expect(s.refusal.recall).toBe(1 / 2);
    expect(s.median_best_similarity).toEqual({ answerable: (0.55 + 0.6) / 2, no_answer: 0.5 });
  });

  it('gives null rates for a group without answerable questions', () => {
    const s = summarise(outcomes.slice(4));
    expect([s.hit_at_1, s.hit_at_5, s.mrr_at_10]).toEqual([null, null, null]);
  });

  it('sweeps thresholds from the best similarities', () => {
    const [low, mid, high] = thresholdSweep(outcomes, [0.4, 0.5, 0.65]);
    // 0.4: nothing refused. 0.5: refuses 0.45 (answerable) and 0.48. 0.65: all but 0.7.
    expect([low!.precision, low!.recall]).toEqual([null, 0]);
    expect([mid!.precision, mid!.recall]).toEqual([1 / 2, 1 / 2]);
    expect([high!.precision, high!.recall, high!.false_refusals]).toEqual([2 / 5, 1, 3]);
  });
});
