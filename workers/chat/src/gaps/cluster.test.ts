import { describe, expect, it } from 'vitest';
import { closestPassages, groupGaps, pairKey, type GapRow } from './cluster';

const FILE = '0b9f4c1e-7d2a-4e5b-9c3d-2a1b0c9d8e7f';
const COLLECTION = '00000000-0000-0000-0000-000000000000';
const passage = (chunk: number, similarity: number) => ({
  file_id: FILE,
  file_name: 'a.pdf',
  collection_id: COLLECTION,
  collection_name: 'Shared',
  page: chunk,
  similarity,
  chunk_id: chunk,
});

const row = (
  id: number,
  question: string,
  minutes: number,
  extra: Partial<GapRow> = {},
): GapRow => ({
  id,
  kind: 'refused',
  question,
  bestSimilarity: 0.4,
  closest: [],
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, minutes)),
  resolvedAt: null,
  ...extra,
});

describe('groupGaps', () => {
  it('joins a question to the first group whose leader it is similar to; largest group first', () => {
    const rows = [
      row(1, '年假有几天', 1),
      row(2, '病假工资怎么算', 2),
      row(3, '年假一共有几天', 3, { kind: 'unhelpful', bestSimilarity: 0.6 }),
      row(4, '年假有几天', 4),
    ];
    const groups = groupGaps(rows, new Set([pairKey(4, 3), pairKey(4, 1), pairKey(3, 1)]));
    expect(groups.map((g) => g.ids)).toEqual([[4, 3, 1], [2]]);
    expect(groups[0]).toMatchObject({
      questions: ['年假有几天', '年假一共有几天'],
      count: 3,
      kinds: { refused: 2, unhelpful: 1, unsupported: 0 },
      latest: '2026-01-01T00:04:00.000Z',
      best_similarity: 0.6,
      resolved: false,
    });
  });

  it('compares with the leader only: no chaining through a member', () => {
    // 3 is like 2 (the leader), 1 is like 2's member 3 but not like 2.
    const groups = groupGaps(
      [row(1, 'a', 1), row(2, 'b', 3), row(3, 'c', 2)],
      new Set([pairKey(2, 3), pairKey(3, 1)]),
    );
    expect(groups.map((g) => g.ids)).toEqual([[2, 3], [1]]);
  });

  it('never mixes resolved and open questions; equal sizes go latest first', () => {
    const groups = groupGaps(
      [row(1, 'a', 1, { resolvedAt: new Date() }), row(2, 'a', 2)],
      new Set([pairKey(1, 2)]),
    );
    expect(groups.map((g) => [g.ids, g.resolved])).toEqual([
      [[2], false],
      [[1], true],
    ]);
  });

  it('keeps at most 10 distinct questions, and null similarity when nothing was found', () => {
    const rows = Array.from({ length: 12 }, (_, i) =>
      row(i + 1, `q${i % 11}`, i, { bestSimilarity: null }),
    );
    const pairs = new Set(rows.slice(0, 11).map((r) => pairKey(12, r.id)));
    const [group] = groupGaps(rows, pairs);
    expect(group!.count).toBe(12);
    expect(group!.questions).toHaveLength(10);
    expect(group!.questions[0]).toBe('q0');
    expect(group!.best_similarity).toBeNull();
  });
});

describe('closestPassages', () => {
  it('each chunk once at its best, most similar first, at most three, none cited', () => {
    const found = closestPassages([
      passage(1, 0.3),
      passage(2, 0.45),
      { ...passage(1, 0.41), citation: 2 },
      passage(3, 0.2),
      passage(4, 0.35),
    ]);
    expect(found.map((p) => [p.chunk_id, p.similarity, p.citation])).toEqual([
      [2, 0.45, null],
      [1, 0.41, null],
      [4, 0.35, null],
    ]);
  });
});
