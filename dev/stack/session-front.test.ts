import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawPgClient } from '../test/raw-pg-client.ts';
import { startSessionFront, type SessionFront } from './session-front.ts';

let db: PGlite;
let front: SessionFront;

beforeAll(async () => {
  db = await PGlite.create();
  front = await startSessionFront(db);
});

afterAll(async () => {
  await front.close();
  await db.close();
});

// Eight rows of ~1.25 MB, each made of one letter: any byte of one row showing up in another,
// a row cut short or a row missing is visible.
const BIG_ROWS = `select i, repeat(chr(65 + i), 1250000) as text from generate_series(0, 7) as i`;

function expectIntactRows(rows: (string | null)[][]): void {
  expect(rows.map((row) => row[0])).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
  rows.forEach((row, i) => {
    const text = row[1]!;
    expect(text.length, `row ${i} length`).toBe(1_250_000);
    const letter = String.fromCharCode(65 + i);
    expect(text.replaceAll(letter, ''), `row ${i} holds only ${letter}`).toBe('');
  });
}

describe('results reach the client intact', () => {
  it('a ~10 MB result read at full speed', async () => {
    const client = await RawPgClient.connect(front.port);
    try {
      const result = await client.query(BIG_ROWS);
      expect(result.error).toBeUndefined();
      expectIntactRows(result.rows);
    } finally {
      client.end();
    }
  });

  it('a ~10 MB result read by a slow client', async () => {
    const client = await RawPgClient.connect(front.port);
    try {
      // The client stops reading: the front's socket buffers fill and writes cannot complete
      // at once, while PGlite goes on producing output into the same WebAssembly memory.
      client.socket.pause();
      client.sendQuery(BIG_ROWS);
      await new Promise((resolve) => setTimeout(resolve, 500));
      client.socket.resume();
      const result = await client.readUntilReady();
      expect(result.error).toBeUndefined();
      expectIntactRows(result.rows);
    } finally {
      client.end();
    }
  });
});
