import type { FileRow } from '../db/schema';
import type { KnowledgeCall } from '../call';
import { stopIngest } from '../pipeline/watchdog';
import { deleteFileRow, type KnowledgeDb } from '../store/files';
import { deleteOriginal } from '../store/originals';

/**
 * A file gone entirely: its workflow stopped, its rows (pages, chunks, layouts go with the file
 * row: ON DELETE CASCADE) and its original.
 */
export async function removeFile(ctx: KnowledgeCall, kdb: KnowledgeDb, row: FileRow) {
  await stopIngest(ctx.env.INGEST, row);
  await kdb.run(deleteFileRow(kdb.db, row.id));
  await deleteOriginal(ctx.env.FILES, row.id);
}
