import { principalOf } from '#shared/auth/principal';
import { accessDenied } from '#shared/service';
import { auditActor, knowledgeDb, type KnowledgeCall } from '../call';
import { reindexRecorded } from '../store/audit';
import { collectionFor } from '../handlers/collection-access';
import type { KnowledgeDb } from '../store/files';
import {
  failJob,
  insertJobUnlessRunning,
  jobById,
  lockScope,
  runningJob,
  setWorkflowId,
  staleFiles,
  type ReindexJobRow,
  type StaleFile,
} from '../store/reindex';
import { configuredModel } from './steps';

/**
 * Starts a re-index of a collection (its owners) or of everything (a SUPER_ADMIN), or answers
 * the running one that covers it (starting its workflow again if that stopped: the new run
 * goes on from the files not swapped yet). Nothing of another model: a job already done.
 */
export async function startReindex(
  ctx: KnowledgeCall,
  collectionId: string | null,
): Promise<ReindexJobRow> {
  const principal = principalOf(ctx);
  if (collectionId) await collectionFor(ctx, collectionId, 'owner');
  else if (principal.role !== 'SUPER_ADMIN') {
    throw accessDenied('only a SUPER_ADMIN re-indexes every collection');
  }
  const model = configuredModel(ctx.env);
  const kdb = knowledgeDb(ctx);
  const [[running], { rows: files }] = await kdb.batch([
    runningJob(kdb.db, collectionId),
    kdb.db.execute<StaleFile>(staleFiles(collectionId, model)),
  ]);
  if (running) return keepGoing(ctx, kdb, running);
  const id = crypto.randomUUID();
  const workflowId = files.length > 0 ? `reindex-${id}` : null;
  const [, , [inserted], [covering]] = await kdb.batch([
    lockScope(kdb.db, collectionId),
    insertJobUnlessRunning(kdb.db, {
      id,
      collectionId,
      model,
      status: files.length > 0 ? 'running' : 'done',
      fileIds: files.map((file) => file.id),
      chunks: files.reduce((sum, file) => sum + file.chunks, 0),
      workflowId,
      createdBy: principal.id,
    }),
    jobById(kdb.db, id),
    runningJob(kdb.db, collectionId),
    reindexRecorded(kdb.db, id, collectionId, {
      action: 'knowledge.reindex',
      actor: auditActor(ctx),
      detail: { model, files: files.length },
    }),
  ]);
  // Another start got there first (between the check above and this batch): its job.
  if (!inserted) return covering!;
  if (workflowId) await startWorkflow(ctx, kdb, inserted, workflowId);
  ctx.log.info('re-index started', {
    reindex_job: id,
    files: files.length,
    chunks: inserted.chunks,
  });
  return inserted;
}

async function startWorkflow(
  ctx: KnowledgeCall,
  kdb: KnowledgeDb,
  job: ReindexJobRow,
  workflowId: string,
) {
  try {
    await ctx.env.REINDEX.create({ id: workflowId, params: { jobId: job.id } });
  } catch (err) {
    await kdb.run(
      failJob(kdb.db, job.id, { code: 'internal_error', message: 'The re-index could not start.' }),
    );
    throw err;
  }
}

/** A running job whose workflow ended without finishing it (errored, terminated) runs again. */
async function keepGoing(
  ctx: KnowledgeCall,
  kdb: KnowledgeDb,
  job: ReindexJobRow,
): Promise<ReindexJobRow> {
  if (job.workflowId && (await isAlive(ctx, job.workflowId))) return job;
  const workflowId = `reindex-${job.id}-${Date.now()}`;
  await kdb.run(setWorkflowId(kdb.db, job.id, workflowId));
  await startWorkflow(ctx, kdb, job, workflowId);
  ctx.log.info('re-index resumed', { reindex_job: job.id });
  return { ...job, workflowId };
}

async function isAlive(ctx: KnowledgeCall, workflowId: string): Promise<boolean> {
  try {
    const { status } = await (await ctx.env.REINDEX.get(workflowId)).status();
    return !['errored', 'terminated', 'complete'].includes(status);
  } catch {
    return false;
  }
}
