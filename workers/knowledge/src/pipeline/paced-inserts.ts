import type { KnowledgeDb } from '../store/files';
import { chunksStored, insertChunks, runAll, type NewChunk } from '../store/ingest';

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
 * transactions leaves nothing a retry does not put right. `progress(inserted)`, when given, is
 * committed with each transaction but the last (the file's chunks_done, counted as chunks are
 * stored): the files panel's bar moves with the inserts instead of jumping a step at a time.
 */
export async function insertPaced(
  kdb: KnowledgeDb,
  file: { id: string; collectionId: string },
  rows: readonly NewChunk[],
  last: Statement | readonly Statement[],
  holdMs: number,
  progress?: (inserted: number) => Statement,
): Promise<void> {
  let size = holdMs > 0 ? FIRST_ROWS : rows.length;
  let at = 0;
  while (rows.length - at > size) {
    const started = Date.now();
    const inserts = insertChunks(kdb.db, file, rows.slice(at, at + size));
    await runAll(kdb, progress ? [...inserts, progress(at + size)] : inserts);
    at += size;
    const took = Math.max(1, Date.now() - started);
    size = Math.min(MOST_ROWS, Math.max(1, Math.round((size * holdMs) / took)));
  }
  await runAll(kdb, [...insertChunks(kdb.db, file, rows.slice(at)), ...[last].flat()]);
}

/**
 * Chunks per embedding request and progress update within a step: the files panel's bar moves
 * every so many chunks as they are embedded and stored, not once per step (a step is 200, so a
 * file of under 200 chunks went from 0 to done at once). A few requests more per step than
 * one, each well within any endpoint's limits.
 */
export const PART_ROWS = 50;

/**
 * A step's chunks embedded and stored a part (PART_ROWS) at a time, each part's rows inserted
 * paced (insertPaced) with the count stored so far; the last part's last transaction commits
 * `last` (the step's progress, or the file made ready with its last chunks).
 */
export async function embedAndInsertPaced(
  kdb: KnowledgeDb,
  file: { id: string; collectionId: string },
  rows: readonly Omit<NewChunk, 'embedding' | 'embeddingModel'>[],
  embed: (rows: readonly Omit<NewChunk, 'embedding' | 'embeddingModel'>[]) => Promise<NewChunk[]>,
  options: { last: Statement | readonly Statement[]; holdMs: number; storedBefore: number },
): Promise<void> {
  const stored = (count: number) => chunksStored(kdb.db, file.id, options.storedBefore + count);
  for (let from = 0; from === 0 || from < rows.length; from += PART_ROWS) {
    const part = await embed(rows.slice(from, from + PART_ROWS));
    const final = from + PART_ROWS >= rows.length;
    await insertPaced(
      kdb,
      file,
      part,
      final ? options.last : stored(from + part.length),
      options.holdMs,
      (inserted) => stored(from + inserted),
    );
  }
}
