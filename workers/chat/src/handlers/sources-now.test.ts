import { describe, expect, it } from 'vitest';
import { citedFiles, withNow } from './sources-now';

const A = '3c40320a-0000-4000-8000-000000000001';
const B = '3c40320a-0000-4000-8000-000000000002';
const C = '3c40320a-0000-4000-8000-0000000000c1';

describe('sources as they stand now', () => {
  it('asks after each cited file once, with the collection it was cited in', () => {
    expect(
      citedFiles([
        { file_id: A, collection_id: C },
        { file_id: B },
        { file_id: A, collection_id: C },
      ]),
    ).toEqual([{ id: A, collection_id: C }, { id: B }]);
  });

  it('adds the state now beside the stored fields, which stay as they were', () => {
    const stored = [
      { file_id: A, file_name: 'jiedai-2024.docx', page: 3 },
      { file_id: B, file_name: 'b.md', page: 1 },
    ];
    const now = new Map([[A, { state: 'deleted' as const }]]);
    expect(withNow(stored, now)).toEqual([
      { file_id: A, file_name: 'jiedai-2024.docx', page: 3, now: { state: 'deleted' } },
      { file_id: B, file_name: 'b.md', page: 1 },
    ]);
    expect(stored[0]).not.toHaveProperty('now');
    // Knowledge could not be asked: the sources as stored, without `now`.
    expect(withNow(stored, undefined)).toEqual(stored);
  });
});
