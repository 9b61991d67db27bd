import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { chunkReembeddings, chunks, files, reindexJobs } from '../db/schema';
import type { Queries } from './files';

/**
 * Every statement of a re-index (src/reindex/). The caller's (status, planning, reading a
 * job) run under the caller's policies; the workflow's run as the job (`kbchat.reindex_job`)
 * and, for one file's chunks, as that file's ingestion (shared/db/request-db.ts reindexDb).
 */

export type ReindexJobRow = typeof reindexJobs.$inferSelect;

/**
 * Chunks per embedding model in a collection's ready files (those a re-index works on; a file
 * on its way is embedded with the configured model anyway): one grouped count.
 */
export const modelCounts = (db: Queries, collectionId: string) =>
  db
    .select({ model: chunks.embeddingModel, chunks: sql<number>`count(*)::int` })
    .from(chunks)
    .innerJoin(files, eq(files.id, chunks.fileId))
    .where(and(eq(chunks.collectionId, collectionId), eq(files.status, 'ready')))
    .groupBy(chunks.embeddingModel)
    .orderBy(desc(sql`count(*)`));

/** The latest job of the collection or of everything that the caller may read (policies). */
export const latestJob = (db: Queries, collectionId: string) =>
  db
    .select()
    .from(reindexJobs)
    .where(or(eq(reindexJobs.collectionId, collectionId), isNull(reindexJobs.collectionId)))
    .orderBy(desc(reindexJobs.createdAt))
    .limit(1);

/**
 * A running job that covers the scope: the collection's own or everything's; for everything,
 * only everything's.
 */
export const runningJob = (db: Queries, collectionId: string | null) =>
  db
    .select()
    .from(reindexJobs)
    .where(
      and(
        eq(reindexJobs.status, 'running'),
        collectionId
          ? or(eq(reindexJobs.collectionId, collectionId), isNull(reindexJobs.collectionId))
          : isNull(reindexJobs.collectionId),
      ),
    )
    .orderBy(desc(reindexJobs.createdAt))
    .limit(1);

export const jobById = (db: Queries, id: string) =>
  db.select().from(reindexJobs).where(eq(reindexJobs.id, id)).limit(1);

/**
 * The files to re-index, oldest first, with their chunks of another model: the ready files the
 * caller can read, in the collection or all. Older versions of a file too: they can be
 * restored, and the status counts them (a re-index leaves nothing it reports as stale).
 */
export interface StaleFile extends Record<string, unknown> {
  id: string;
  chunks: number;
}
export const staleFiles = (collectionId: string | null, model: string) =>
  sql`
    select f.id, count(*)::int as chunks
    from files f join chunks c on c.file_id = f.id
    where f.status = 'ready'
      and c.embedding_model is distinct from ${model}
      ${collectionId ? sql`and f.collection_id = ${collectionId}` : sql``}
    group by f.id, f.created_at
    order by f.created_at, f.id`;

/**
 * Two starts at once must not make two jobs: starts of the same scope wait on one lock for the
 * rest of their transaction (the batch that checks and inserts).
 */
export const lockScope = (db: Queries, collectionId: string | null) =>
  db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`kbchat.reindex:${collectionId ?? '*'}`}))`,
  );

/** The job, unless a running one covers its scope already (then answer that one). */
export const insertJobUnlessRunning = (
  db: Queries,
  job: {
    id: string;
    collectionId: string | null;
    model: string;
    status: 'running' | 'done';
    fileIds: string[];
    chunks: number;
    workflowId: string | null;
    createdBy: string;
  },
) =>
  db.execute(sql`
    insert into reindex_jobs
      (id, collection_id, embedding_model, status, file_ids, chunks, workflow_id, created_by)
    select ${job.id}::uuid, ${job.collectionId}::uuid, ${job.model}, ${job.status},
           ${`{${job.fileIds.join(',')}}`}::uuid[], ${job.chunks}::int, ${job.workflowId},
           ${job.createdBy}::uuid
    where not exists (${runningJob(db, job.collectionId)})`);

export const failJob = (db: Queries, id: string, error: { code: string; message: string }) =>
  db
    .update(reindexJobs)
    .set({
      status: 'failed',
      errorCode: error.code,
      errorMessage: error.message,
      updatedAt: sql`now()`,
    })
    .where(eq(reindexJobs.id, id));

/** A step's failure, kept while the step is retried; the job fails with it if they run out. */
export const noteJobError = (db: Queries, id: string, error: { code: string; message: string }) =>
  db
    .update(reindexJobs)
    .set({ errorCode: error.code, errorMessage: error.message, updatedAt: sql`now()` })
    .where(eq(reindexJobs.id, id));

/** Progress; a step that gets through clears the error an earlier try left. */
export const setJobProgress = (
  db: Queries,
  id: string,
  progress: { filesDone?: number; chunksDone?: number; status?: 'done' },
) =>
  db
    .update(reindexJobs)
    .set({ ...progress, errorCode: null, errorMessage: null, updatedAt: sql`now()` })
    .where(eq(reindexJobs.id, id));

/** As the file's batch goes on: the chunks before this file, and this file's new vectors. */
export const setChunksDoneInFile = (db: Queries, id: string, fileId: string, before: number) =>
  db
    .update(reindexJobs)
    .set({
      chunksDone: sql`${before} + (select count(*)::int from ${chunkReembeddings}
                                   where ${chunkReembeddings.fileId} = ${fileId})`,
      updatedAt: sql`now()`,
    })
    .where(eq(reindexJobs.id, id));

/** The file (as its ingestion sees it: none once deleted) and its chunks of another model. */
export interface FileStaleCount extends Record<string, unknown> {
  exists: boolean;
  stale: number;
}
export const fileStaleCount = (fileId: string, model: string) =>
  sql`
    select exists (select 1 from files where id = ${fileId}) as exists,
           (select count(*)::int from chunks
            where file_id = ${fileId} and embedding_model is distinct from ${model}) as stale`;

/** New vectors left by a stopped run: their chunks' text may have changed since. */
export const clearReembeddings = (db: Queries, fileId: string) =>
  db.delete(chunkReembeddings).where(eq(chunkReembeddings.fileId, fileId));

/**
 * The next chunks of the file still to embed: of another model, without a new vector yet; with
 * a short hash of their text, which the swap compares (an edited chunk keeps its old vector).
 */
export interface StaleChunk extends Record<string, unknown> {
  id: number;
  content: string;
  hash: string;
}
export const nextStaleChunks = (fileId: string, model: string, limit: number) =>
  sql`
    select c.id::int as id, c.content, left(md5(c.content), 16) as hash
    from chunks c
    where c.file_id = ${fileId} and c.embedding_model is distinct from ${model}
      and not exists (select 1 from chunk_reembeddings r where r.chunk_id = c.id)
    order by c.id
    limit ${limit}`;

export const storeReembeddings = (
  db: Queries,
  rows: { chunkId: number; fileId: string; embeddingModel: string; embedding: number[] }[],
) =>
  db
    .insert(chunkReembeddings)
    .values(rows)
    .onConflictDoUpdate({
      target: chunkReembeddings.chunkId,
      set: {
        embedding: sql`excluded.embedding`,
        embeddingModel: sql`excluded.embedding_model`,
      },
    });

/**
 * The swap, one statement: the file's new vectors replace the old ones of chunks that are
 * still of another model and whose text is still the text that was embedded (the hashes taken
 * with it); then the file's new vectors are deleted, used or not.
 */
export interface Swapped extends Record<string, unknown> {
  moved: number;
  cleared: number;
}
export const swapReembeddings = (
  fileId: string,
  model: string,
  hashes: readonly (readonly [number, string])[],
) =>
  sql`
    with embedded as (
      select (h->>0)::bigint as id, h->>1 as hash
      from jsonb_array_elements(${JSON.stringify(hashes)}::jsonb) h
    ), moved as (
      update chunks c set embedding = r.embedding, embedding_model = r.embedding_model
      from chunk_reembeddings r join embedded e on e.id = r.chunk_id
      where c.id = r.chunk_id and r.file_id = ${fileId} and c.file_id = ${fileId}
        and r.embedding_model = ${model} and c.embedding_model is distinct from ${model}
        and left(md5(c.content), 16) = e.hash
      returning c.id
    ), cleared as (
      delete from chunk_reembeddings where file_id = ${fileId} returning chunk_id
    )
    select (select count(*)::int from moved) as moved,
           (select count(*)::int from cleared) as cleared`;

export const setWorkflowId = (db: Queries, id: string, workflowId: string) =>
  db.update(reindexJobs).set({ workflowId }).where(eq(reindexJobs.id, id));
