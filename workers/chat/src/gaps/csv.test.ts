import { describe, expect, it } from 'vitest';
import { gapsCsv } from './csv';

const group = {
  ids: [7, 3],
  questions: ['年假一共有几天', '年假有"几"天'],
  count: 2,
  kinds: { refused: 2, unhelpful: 0, unsupported: 0 },
  latest: '2026-01-01T00:04:00.000Z',
  best_similarity: 0.43219,
  closest_passages: [
    {
      file_id: '0b9f4c1e-7d2a-4e5b-9c3d-2a1b0c9d8e7f',
      file_name: '出租车.pdf',
      collection_id: '00000000-0000-0000-0000-000000000000',
      collection_name: 'Shared',
      page: 2,
      similarity: 0.43219,
    },
  ],
  resolved: false,
};

describe('gapsCsv', () => {
  it('one row per group after a BOM and English headers; quoted cells, CRLF', () => {
    const csv = gapsCsv({
      collection_id: group.closest_passages[0]!.collection_id,
      groups: [group],
      total: 2,
    });
    expect(csv.startsWith('\uFEFFgroup,count,refused,unhelpful,unsupported,latest,')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[1]).toBe(
      '1,2,2,0,0,2026-01-01T00:04:00.000Z,0.432,"年假一共有几天\n年假有""几""天",出租车.pdf p. 2 (0.432),false,7 3',
    );
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    const csv = gapsCsv({
      collection_id: group.closest_passages[0]!.collection_id,
      groups: [
        { ...group, questions: ['=HYPERLINK("x")'], closest_passages: [], best_similarity: null },
      ],
      total: 1,
    });
    expect(csv).toContain(`,,"'=HYPERLINK(""x"")",,false,`);
  });
});
