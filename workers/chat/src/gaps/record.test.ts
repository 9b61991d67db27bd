import { describe, expect, it } from 'vitest';
import { startOutcome } from '../answer/turn';
import { gapCollections, gapOfTurn, SHARED_COLLECTION_ID, unhelpfulGap } from './record';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const source = (collection: string, similarity: number | null) => ({
  file_id: '0b9f4c1e-7d2a-4e5b-9c3d-2a1b0c9d8e7f',
  file_name: 'a.pdf',
  collection_id: collection,
  collection_name: 'C',
  page: 1,
  similarity,
});

describe('gapOfTurn', () => {
  it('a refusal for lack of relevant knowledge, with its best similarity and candidates', () => {
    const candidate = { ...source(A, 0.43), similarity: 0.43 };
    const outcome = {
      ...startOutcome('zh'),
      status: 'refused' as const,
      code: 'no_relevant_knowledge' as const,
      refusal: {
        request_id: 'r',
        best_similarity: 0.43,
        threshold: 0.5,
        candidates: [candidate],
      },
    };
    expect(gapOfTurn(outcome)).toEqual({
      kind: 'refused',
      bestSimilarity: 0.43,
      closest: [candidate],
    });
  });

  it('a complete answer with a sentence not found in its sources; not one found throughout', () => {
    const sentence = (supported: boolean) => ({
      sentence_index: 0,
      text: 'x',
      cited: [1],
      supported,
    });
    const complete = {
      ...startOutcome('en'),
      status: 'complete' as const,
      sources: [source(A, 0.7), source(B, 0.6)],
    };
    expect(gapOfTurn({ ...complete, support: [sentence(true), sentence(false)] })).toEqual({
      kind: 'unsupported',
      bestSimilarity: 0.7,
      closest: complete.sources,
    });
    expect(gapOfTurn({ ...complete, support: [sentence(true)] })).toBeUndefined();
    expect(gapOfTurn({ ...complete, support: undefined })).toBeUndefined();
  });

  it('failures and cut-off answers say nothing of the knowledge', () => {
    expect(
      gapOfTurn({ ...startOutcome('en'), status: 'failed', code: 'model_failed' }),
    ).toBeUndefined();
    expect(gapOfTurn(startOutcome('en'))).toBeUndefined();
    expect(
      gapOfTurn({ ...startOutcome('en'), status: 'refused', code: 'files_unavailable' }),
    ).toBeUndefined();
  });

  it('an unhelpful mark keeps the sources, best similarity among them', () => {
    expect(unhelpfulGap([source(A, null), source(A, 0.52)]).bestSimilarity).toBe(0.52);
    expect(unhelpfulGap([]).bestSimilarity).toBeNull();
  });
});

describe('gapCollections', () => {
  it('the chat’s collections, else the passages’, else the shared collection', () => {
    expect(gapCollections([A, A], [source(B, 0.4)])).toEqual([A]);
    expect(gapCollections(null, [source(B, 0.4), source(A, 0.3), source(B, 0.2)])).toEqual([B, A]);
    expect(gapCollections(null, [])).toEqual([SHARED_COLLECTION_ID]);
  });
});
