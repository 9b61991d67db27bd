import { describe, expect, it } from 'vitest';
import { collectionReport } from './collection-set.ts';

const FILE = '3f1c2a9e-0b7d-4c55-9a61-2e8f0d4b7c11';

describe('collectionReport', () => {
  it('prints each question’s expected passage, its rank per mode (a miss says so), then hit rate and MRR', () => {
    const tests = [
      {
        id: 1,
        question: '省外出差住宿费每天的限额是多少？',
        file_id: FILE,
        file_name: 'travel.md',
        page: 3,
      },
      { id: 2, question: 'parking permits', file_id: FILE, file_name: null, page: null },
    ];
    const report = collectionReport('Retrieval test set: demo', tests, [
      {
        mode: 'hybrid',
        top: 10,
        cases: [
          { id: 1, rank: 2, similarity: 0.7512 },
          { id: 2, rank: null, similarity: null },
        ],
        hit_rate: 0.5,
        mrr: 0.25,
      },
    ]);
    const lines = report.split('\n');
    expect(lines[0]).toBe('Retrieval test set: demo');
    expect(lines.find((l) => l.startsWith('省外'))).toMatch(/travel\.md p\.3\s+2\s+0\.751$/);
    expect(lines.find((l) => l.startsWith('parking'))).toMatch(/\(file deleted\)\s+miss\s+—$/);
    expect(lines.at(-1)).toMatch(/^hybrid\s+2\s+10\s+0\.500\s+0\.250$/);
  });
});
