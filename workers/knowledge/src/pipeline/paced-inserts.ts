import type { KnowledgeDb } from '../store/files';
import { insertChunks, runAll, type NewChunk } from '../store/ingest';

/** What the last transaction of a step commits with its chunks (its progress, or `ready`). */
type Statement = Parameters<typeof runAll>[1][number];

// A first guess at rows per transaction (a few ms each into the HNSW index locally), and the
// most one may take whatever the measurements say (a step's rows in one statement group).
const FIRST_ROWS = 16;
const MOST_ROWS = 1_000;

/**
 * A step's chunks, inserted in transactions that each hold the database for about `holdMs`,
 * the last one with `last` (so that the file becomes ready in the same transaction as its last
 * chunks). Inserting into the HNSW index is slow (about 2.5 ms a row on the local database,
 * where one session serves every request in turn): a step's 200 rows in one transaction held
 * everyone else's requests for about a second. Each transaction's size follows the time the
 * previous one took (workerd's clock moves across the round trip), so the hold stays near
 * `holdMs` on any database; 0 inserts the whole step in one transaction. Chunks are invisible
 * until their file is ready, and every insert is idempotent, so a step cut short between two
 * transactions leaves nothing a retry does not put right.
 */
export async function insertPaced(
  kdb: KnowledgeDb,
  file: { id: string; collectionId: string },
  rows: readonly NewChunk[],
  last: Statement | readonly Statement[],
  holdMs: number,
): Promise<void> {
  let size = holdMs > 0 ? FIRST_ROWS : rows.length;
  let at = 0;
  while (rows.length - at > size) {
    const started = Date.now();
    await runAll(kdb, insertChunks(kdb.db, file, rows.slice(at, at + size)));
    at += size;
    const took = Math.max(1, Date.now() - started);
    size = Math.min(MOST_ROWS, Math.max(1, Math.round((size * holdMs) / took)));
  }
  await runAll(kdb, [...insertChunks(kdb.db, file, rows.slice(at)), ...[last].flat()]);
}
