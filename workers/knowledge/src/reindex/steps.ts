import { reindexDb } from '#shared/db/request-db';
import { toAppError } from '#shared/errors/classify';
import type { Logger } from '#shared/log/logger';
import { createModelClient } from '#shared/model/client';
import { embedTexts, embeddingModelId } from '#shared/model/embed';
import { knowledgeConfig } from '../config';
import * as schema from '../db/schema';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { normaliseForIndex } from '../ingest/normalise-for-index';
import type { KnowledgeDb } from '../store/files';
import {
  clearReembeddings,
  failJob,
  fileStaleCount,
  jobById,
  nextStaleChunks,
  noteJobError,
  setChunksDoneInFile,
  setJobProgress,
  storeReembeddings,
  swapReembeddings,
  type FileStaleCount,
  type StaleChunk,
  type Swapped,
} from '../store/reindex';

/**
 * The steps of a re-index (pipeline/reindex-workflow.ts runs them as durable workflow steps).
 * Like the ingestion's, each keeps its state in Postgres (the new vectors in
 * chunk_reembeddings) and returns only small results: counts, and the chunk ids with a short
 * hash of the text that was embedded, never vectors.
 */
export interface ReindexContext {
  env: KnowledgeEnv;
  log: Logger;
  jobId: string;
}

/** A chunk id with the hash of the text its new vector was made from. */
export type EmbeddedChunk = [id: number, hash: string];

const dbOf = (ctx: ReindexContext, fileId?: string): KnowledgeDb =>
  reindexDb(knowledgeConfig(ctx.env).database, schema, ctx.jobId, fileId);

/** The configured model's name (`name@dimensions`): what chunks are re-embedded with. */
export const configuredModel = (env: KnowledgeEnv) => embeddingModelId(knowledgeConfig(env).model);

/** The job's files in order and its model; none when it is no longer running. */
export async function loadJob(ctx: ReindexContext) {
  const kdb = dbOf(ctx);
  const [job] = await kdb.run(jobById(kdb.db, ctx.jobId));
  if (!job || job.status !== 'running') return undefined;
  return { fileIds: job.fileIds, model: job.embeddingModel };
}

/**
 * A file's start: new vectors a stopped run left are dropped (the text may have changed since),
 * and its chunks of another model counted. A deleted file, or one whose chunks are all of the
 * configured model already (a restarted re-index), has nothing to do.
 */
export function beginFile(ctx: ReindexContext, fileId: string, model: string) {
  return guarded(ctx, fileId, async (kdb) => {
    const [, { rows }] = await kdb.batch([
      clearReembeddings(kdb.db, fileId),
      kdb.db.execute<FileStaleCount>(fileStaleCount(fileId, model)),
    ]);
    const found = rows[0]!;
    return { stale: found.exists ? found.stale : 0 };
  });
}

/**
 * The next batch of a file's chunks of another model, embedded (their index form, as the
 * ingestion embeds them) into chunk_reembeddings, the job's progress with them; then the
 * pause that leaves room for queries. None left: an empty list.
 */
export function embedBatch(ctx: ReindexContext, fileId: string, model: string, before: number) {
  return guarded(ctx, fileId, async (kdb) => {
    const config = knowledgeConfig(ctx.env);
    const { rows } = await kdb.run(
      kdb.db.execute<StaleChunk>(nextStaleChunks(fileId, model, config.reindex.batchChunks)),
    );
    if (rows.length === 0) return { embedded: [] as EmbeddedChunk[] };
    const { vectors } = await embedTexts(
      createModelClient(config.model),
      config.model,
      rows.map((chunk) => normaliseForIndex(chunk.content)),
      {
        limits: { inputs: config.ingest.batchInputs, tokens: config.ingest.batchTokens },
        columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
      },
    );
    await kdb.batch([
      storeReembeddings(
        kdb.db,
        rows.map((chunk, i) => ({
          chunkId: chunk.id,
          fileId,
          embeddingModel: model,
          embedding: vectors[i]!,
        })),
      ),
      setChunksDoneInFile(kdb.db, ctx.jobId, fileId, before),
    ]);
    if (config.reindex.pauseMs > 0) await pause(config.reindex.pauseMs);
    return { embedded: rows.map((chunk): EmbeddedChunk => [chunk.id, chunk.hash]) };
  });
}

/**
 * The file's new vectors replace its old ones in one statement (see swapReembeddings: a chunk
 * edited meanwhile keeps its old vector and stays stale), with the job's progress.
 */
export function swapFile(
  ctx: ReindexContext,
  fileId: string,
  model: string,
  embedded: readonly EmbeddedChunk[],
  progress: { filesDone: number; chunksDone: number },
) {
  return guarded(ctx, fileId, async (kdb) => {
    const [{ rows }] = await kdb.batch([
      kdb.db.execute<Swapped>(swapReembeddings(fileId, model, embedded)),
      setJobProgress(kdb.db, ctx.jobId, progress),
    ]);
    // The swap rewrites the file's vectors in the HNSW index: queries get their room after it too.
    const { pauseMs } = knowledgeConfig(ctx.env).reindex;
    if (embedded.length > 0 && pauseMs > 0) await pause(pauseMs);
    return { moved: rows[0]?.moved ?? 0 };
  });
}

export function finishJob(
  ctx: ReindexContext,
  progress: { filesDone: number; chunksDone: number },
) {
  return guarded(ctx, undefined, async (kdb) => {
    await kdb.run(setJobProgress(kdb.db, ctx.jobId, { ...progress, status: 'done' }));
  });
}

/**
 * After a step's retries ran out: the job fails with the last error a step wrote down (the
 * model or the database away); every file not swapped yet keeps its old vectors serving.
 */
export async function giveUp(ctx: ReindexContext, reason?: { code: string; message: string }) {
  const kdb = dbOf(ctx);
  const [job] = await kdb.run(jobById(kdb.db, ctx.jobId));
  if (!job || job.status !== 'running') return;
  await kdb.run(
    failJob(
      kdb.db,
      ctx.jobId,
      reason ?? {
        code: job.errorCode ?? 'internal_error',
        message: job.errorMessage ?? 'The re-index stopped.',
      },
    ),
  );
}

/** A step's work; what fails is written down as the job's last error, then retried. */
async function guarded<T>(
  ctx: ReindexContext,
  fileId: string | undefined,
  work: (kdb: KnowledgeDb) => Promise<T>,
): Promise<T> {
  const kdb = dbOf(ctx, fileId);
  try {
    return await work(kdb);
  } catch (err) {
    const known = toAppError(err);
    ctx.log.warn('re-index step failed; it will be retried', { file_id: fileId, code: known.code });
    const job = dbOf(ctx);
    await job
      .run(noteJobError(job.db, ctx.jobId, { code: known.code, message: known.message }))
      .catch(() => undefined);
    throw err;
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
