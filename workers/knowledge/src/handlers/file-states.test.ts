import { describe, expect, it } from 'vitest';
import { fileStates, type CurrentVersion, type FoundFile } from './file-states';
import type { FileValidity } from './metadata';

const V1 = '3c40320a-0000-4000-8000-000000000001';
const V2 = '3c40320a-0000-4000-8000-000000000002';
const OTHER = '3c40320a-0000-4000-8000-000000000003';
const GONE = '3c40320a-0000-4000-8000-000000000004';
const SHARED = '3c40320a-0000-4000-8000-0000000000c1';
const HIDDEN = '3c40320a-0000-4000-8000-0000000000c2';
const AT = new Date('2026-03-02T08:00:00Z');

const file = (id: string, over: Partial<FoundFile> = {}): FoundFile => ({
  id,
  lineageId: null,
  supersededBy: null,
  supersededAt: null,
  version: 1,
  ...over,
});
const v2: CurrentVersion = { id: V2, lineageId: V1, name: 'jiedai-2024-v2.docx', version: 2 };
const repealed: FileValidity = {
  status: 'repealed',
  relations: [
    {
      id: 1,
      relation: 'repealed_by',
      file_id: null,
      file_name: null,
      doc_number: '川办规〔2026〕1号',
      title: null,
      origin: 'person',
    },
  ],
};

describe('fileStates', () => {
  it('says a superseded file is, names the version searched now and gives that one’s validity', () => {
    const [state] = fileStates([{ id: V1, collection_id: SHARED }], {
      found: [file(V1, { supersededBy: V2, supersededAt: AT })],
      readable: new Set([SHARED]),
      currents: [v2],
      validity: new Map<string, FileValidity>([
        [V1, { status: 'in_force', relations: [] }],
        [V2, repealed],
      ]),
    });
    expect(state).toEqual({
      id: V1,
      state: 'superseded',
      version: 1,
      superseded_at: '2026-03-02T08:00:00.000Z',
      current: { id: V2, name: 'jiedai-2024-v2.docx', version: 2 },
      validity: repealed,
    });
  });

  it('finds the current version of a later version’s lineage too (an older one restored)', () => {
    const [state] = fileStates([{ id: V2 }], {
      found: [file(V2, { lineageId: V1, supersededBy: V1, supersededAt: AT, version: 2 })],
      readable: new Set(),
      currents: [{ id: V1, lineageId: null, name: 'jiedai-2024.docx', version: 1 }],
      validity: new Map(),
    });
    // Its own version says the current one is older: the web app must not call that newer.
    expect(state).toMatchObject({
      state: 'superseded',
      version: 2,
      current: { id: V1, version: 1 },
    });
  });

  it('says current with the validity now; a file not found is deleted only where its collection is readable', () => {
    const states = fileStates(
      [
        { id: OTHER, collection_id: SHARED },
        { id: GONE, collection_id: SHARED },
        { id: V1, collection_id: HIDDEN },
        { id: V2 },
      ],
      {
        found: [file(OTHER)],
        readable: new Set([SHARED]),
        currents: [],
        validity: new Map([[OTHER, repealed]]),
      },
    );
    expect(states).toEqual([
      { id: OTHER, state: 'current', validity: repealed },
      { id: GONE, state: 'deleted' },
      { id: V1, state: 'unavailable' },
      { id: V2, state: 'unavailable' },
    ]);
  });

  it('names no current version when none is ready and readable', () => {
    const [state] = fileStates([{ id: V1 }], {
      found: [file(V1, { supersededBy: V2, supersededAt: AT })],
      readable: new Set(),
      currents: [],
      validity: new Map(),
    });
    expect(state).toEqual({
      id: V1,
      state: 'superseded',
      version: 1,
      superseded_at: AT.toISOString(),
      current: null,
    });
  });
});
