import { describe, expect, it } from 'vitest';
import { largestSimilarityGap, recallAtK } from './hnsw-recall.ts';

const n = (id: number, similarity: number) => ({ id, similarity });

describe('recallAtK', () => {
  const exact = [n(1, 0.9), n(2, 0.8), n(3, 0.7), n(4, 0.6)];

  it('is the share of the exact top k the served list holds', () => {
    expect(recallAtK([n(1, 0.9), n(2, 0.8), n(3, 0.7), n(4, 0.6)], exact, 4).ids).toBe(1);
    expect(recallAtK([n(1, 0.9), n(3, 0.7), n(9, 0.5), n(8, 0.4)], exact, 4).ids).toBe(0.5);
    expect(recallAtK([n(2, 0.8)], exact, 2).ids).toBe(0.5);
  });

  it('counts a served result that ties the exact k-th when ties are allowed', () => {
    const served = [n(1, 0.9), n(2, 0.8), n(3, 0.7), n(5, 0.6)];
    expect(recallAtK(served, exact, 4)).toEqual({ ids: 0.75, ties_ok: 1 });
  });

  it('is 1 when there is nothing to find', () => {
    expect(recallAtK([], [], 10)).toEqual({ ids: 1, ties_ok: 1 });
  });
});

describe('largestSimilarityGap', () => {
  it('compares the similarities of chunks in both lists only', () => {
    expect(largestSimilarityGap([n(1, 0.9), n(2, 0.75), n(7, 0.1)], [n(1, 0.9), n(2, 0.8)])).toBe(
      0.8 - 0.75,
    );
  });
});
