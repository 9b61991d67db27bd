import { describe, expect, it } from 'vitest';
import { chooseMatch } from './match';

const candidate = (id: string, similarity: number, threshold = 0.9) => ({
  id,
  collectionId: `c-${id}`,
  question: `q ${id}`,
  answer: `a ${id}`,
  citations: [],
  similarity,
  threshold,
});

describe('chooseMatch', () => {
  it('gives as written the nearest official answer at its collection’s threshold', () => {
    expect(chooseMatch([candidate('a', 0.95), candidate('b', 0.7)], 0.5)).toMatchObject({
      id: 'a',
      use: 'direct',
    });
  });

  it('a less similar answer whose collection asks less is given as written before a nearer one', () => {
    const chosen = chooseMatch([candidate('near', 0.85), candidate('far', 0.8, 0.75)], 0.5);
    expect(chosen).toMatchObject({ id: 'far', use: 'direct' });
  });

  it('below every threshold, the nearest one from chat’s threshold on goes to the model', () => {
    expect(chooseMatch([candidate('a', 0.6), candidate('b', 0.7)], 0.5)).toMatchObject({
      id: 'b',
      use: 'context',
      similarity: 0.7,
    });
  });

  it('below chat’s threshold, or with none, there is no match', () => {
    expect(chooseMatch([candidate('a', 0.49)], 0.5)).toBeUndefined();
    expect(chooseMatch([], 0.5)).toBeUndefined();
  });
});
