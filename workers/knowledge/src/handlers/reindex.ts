import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import { notFound } from '#shared/errors/app-error';
import type { ServiceImpl } from '#shared/service';
import { knowledgeDb } from '../call';
import { jobView } from '../reindex/job-view';
import { startReindex } from '../reindex/start';
import { configuredModel } from '../reindex/steps';
import { readableCollection } from '../store/collections';
import { jobById, latestJob, modelCounts } from '../store/reindex';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

/**
 * Which models made a collection's vectors: readers may see it; the latest job only those who
 * may read jobs (the policies answer none to the others). One round trip, one grouped count.
 */
export const GetEmbeddingStatus: Impl['GetEmbeddingStatus'] = async ({ collection_id }, ctx) => {
  const kdb = knowledgeDb(ctx);
  const [collection, counts, [job]] = await kdb.batch([
    readableCollection(kdb.db, collection_id),
    modelCounts(kdb.db, collection_id),
    latestJob(kdb.db, collection_id),
  ]);
  if (collection.length === 0) throw notFound('collection');
  const configured = configuredModel(ctx.env);
  return {
    collection_id,
    configured,
    models: counts,
    stale_chunks: counts
      .filter((count) => count.model !== configured)
      .reduce((sum, count) => sum + count.chunks, 0),
    job: job ? jobView(job) : null,
  };
};

export const PostReindex: Impl['PostReindex'] = async ({ body }, ctx) =>
  jobView(await startReindex(ctx, body.collection_id ?? null));

export const GetReindex: Impl['GetReindex'] = async ({ id }, ctx) => {
  const kdb = knowledgeDb(ctx);
  const [job] = await kdb.run(jobById(kdb.db, id));
  if (!job) throw notFound('re-index job');
  return jobView(job);
};
