import type { z } from 'zod';
import type { ReindexJob } from '#shared/contracts/knowledge-upkeep';
import type { ReindexJobRow } from '../store/reindex';

/** A job as the API answers it. */
export function jobView(row: ReindexJobRow): z.output<typeof ReindexJob> {
  return {
    id: row.id,
    collection_id: row.collectionId,
    model: row.embeddingModel,
    status: row.status,
    files: row.fileIds.length,
    files_done: row.filesDone,
    chunks: row.chunks,
    // A chunk edited or added meanwhile may make the count run past the plan's total.
    chunks_done: Math.min(row.chunksDone, row.chunks),
    error:
      row.status === 'failed' || row.errorCode
        ? { code: row.errorCode ?? 'internal_error', message: row.errorMessage ?? '' }
        : null,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
