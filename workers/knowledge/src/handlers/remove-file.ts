import { sql } from 'drizzle-orm';
import type { FileRow } from '../db/schema';
import type { KnowledgeCall } from '../call';
import { stopIngest } from '../pipeline/watchdog';
import { deleteFileRow, type KnowledgeDb } from '../store/files';
import { fileRecorded, type Recorded } from '../store/audit';
import { deleteOriginal } from '../store/originals';
import { unlinkStatements } from '../store/versions';

/**
 * A file gone entirely: its workflow stopped, its rows (pages, chunks, layouts go with the file
 * row: ON DELETE CASCADE) and its original. A version's history stays whole: deleting the
 * current version makes the previous one current again (store/versions.ts unlinkStatements),
 * in the transaction that deletes it.
 */
export async function removeFile(
  ctx: KnowledgeCall,
  kdb: KnowledgeDb,
  row: FileRow,
  record?: Recorded,
) {
  await stopIngest(ctx.env.INGEST, row);
  // A deletion someone asked for is recorded first in the batch, while the name is there.
  await kdb.batch([
    record ? fileRecorded(kdb.db, row.id, record) : kdb.db.execute(sql`select 1`),
    deleteFileRow(kdb.db, row.id),
    ...unlinkStatements(kdb.db, row),
  ]);
  await deleteOriginal(ctx.env.FILES, row.id);
}
