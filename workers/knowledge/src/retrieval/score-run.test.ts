import { describe, expect, it } from 'vitest';
import { scoreCase, summarise } from './score-run';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const results = [
  { file_id: B, page: 1, similarity: 0.8 },
  { file_id: A, page: 2, similarity: 0.7 },
  { file_id: A, page: 5, similarity: 0.6 },
];

describe('scoreCase', () => {
  it('ranks the first result from the expected file when no page is named', () => {
    expect(scoreCase({ file_id: A, page: null }, results)).toEqual({ rank: 2, similarity: 0.7 });
  });

  it('needs the page too when the case names one', () => {
    expect(scoreCase({ file_id: A, page: 5 }, results)).toEqual({ rank: 3, similarity: 0.6 });
  });

  it('misses when the file (or page) is not among the results', () => {
    expect(scoreCase({ file_id: A, page: 9 }, results)).toEqual({ rank: null, similarity: null });
    expect(scoreCase({ file_id: B, page: null }, [])).toEqual({ rank: null, similarity: null });
  });
});

describe('summarise', () => {
  it('counts a miss as 0 in the mean reciprocal rank', () => {
    expect(summarise([1, 2, null, 4])).toEqual({ hit_rate: 0.75, mrr: (1 + 0.5 + 0.25) / 4 });
  });

  it('is 0 for no cases', () => {
    expect(summarise([])).toEqual({ hit_rate: 0, mrr: 0 });
  });
});
