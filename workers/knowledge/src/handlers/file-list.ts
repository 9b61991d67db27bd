import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import type { ServiceImpl } from '#shared/service';
import { knowledgeDb } from '../call';
import { FILE_STATUSES } from '../db/schema';
import { fileListPage, fileListTotal, fileStatusCounts } from '../store/file-list';
import { collectionFor } from './collection-access';
import { callValidity } from './metadata';
import { listedFileView } from './views';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

/**
 * A collection's current files a page at a time (see the contract). Newest first and largest
 * first by default; names and statuses A→Z (statuses in the order a file goes through them).
 * Two round trips: the page, its total and the per-status counts in one batch, then what the
 * page's files say of their validity. Neither reads chunks.
 */
export const GetFiles: Impl['GetFiles'] = async (params, ctx) => {
  await collectionFor(ctx, params.collection_id, 'viewer');
  const order =
    params.order ?? (params.sort === 'created_at' || params.sort === 'size' ? 'desc' : 'asc');
  const filter = {
    collectionId: params.collection_id,
    q: params.q || undefined,
    status: params.status,
    format: params.format,
  };
  const kdb = knowledgeDb(ctx);
  const [rows, [total], byStatus] = await kdb.batch([
    fileListPage(kdb.db, {
      ...filter,
      sort: params.sort,
      order,
      limit: params.size,
      offset: (params.page - 1) * params.size,
    }),
    fileListTotal(kdb.db, filter),
    fileStatusCounts(kdb.db, params.collection_id),
  ] as const);
  const validity = await callValidity(
    ctx,
    rows.map((row) => row.file.id),
  );
  const counts = Object.fromEntries(FILE_STATUSES.map((status) => [status, 0])) as Record<
    (typeof FILE_STATUSES)[number],
    number
  >;
  for (const { status, files } of byStatus) counts[status] = Number(files);
  return {
    items: rows.map((row) => listedFileView(row, undefined, validity.get(row.file.id))),
    page: params.page,
    size: params.size,
    total: Number(total?.total ?? 0),
    counts,
  };
};
