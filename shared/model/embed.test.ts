import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './embed';

describe('cosineSimilarity', () => {
  it('is 1 for the same direction, 0 at right angles, -1 opposite', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([1, -2], [-1, 2])).toBeCloseTo(-1, 12);
  });

  it('is what pgvector gives for 1 - (a <=> b), zero padding changing nothing', () => {
    // [3,4] and [4,3]: dot 24, norms 5 and 5.
    expect(cosineSimilarity([3, 4, 0, 0], [4, 3, 0, 0])).toBeCloseTo(24 / 25, 12);
    expect(cosineSimilarity([3, 4], [4, 3])).toBe(cosineSimilarity([3, 4, 0], [4, 3, 0]));
  });

  it('is 0 for a zero vector, never NaN', () => {
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });
});
