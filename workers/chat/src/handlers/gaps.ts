import type { z } from 'zod';
import type { Principal } from '#shared/auth/roles';
import type { GapReport } from '#shared/contracts/answer-upkeep';
import type { chatService, ChatSource } from '#shared/contracts/chat';
import { AppError, notFound } from '#shared/errors/app-error';
import type { ServiceImpl } from '#shared/service';
import { auditActor, chatDb, type ChatCall } from '../call';
import { recorded } from '../store/audit';
import { GROUP_SIMILARITY, groupGaps, pairKey } from '../gaps/cluster';
import { gapsCsv } from '../gaps/csv';
import * as store from '../store/gaps';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;
type Report = z.output<typeof GapReport>;

/**
 * A collection's gap report: its editors and owners only (a viewer: 403; a collection the
 * caller cannot read: 404). Standing, questions and their similar pairs in one transaction.
 */
async function report(ctx: ChatCall, collectionId: string, withResolved: boolean): Promise<Report> {
  const { batch, db } = chatDb(ctx);
  const [standing, rows, pairs] = await batch([
    store.collectionStanding(db, collectionId),
    store.reportQuestions(db, collectionId, withResolved),
    store.similarPairs(db, collectionId, withResolved, GROUP_SIMILARITY),
  ]);
  const { reads, keeps } = standing.rows[0] ?? { reads: false, keeps: false };
  if (!reads) throw notFound('collection');
  if (!keeps) throw new AppError('permission_denied');
  const similar = new Set(pairs.rows.map(({ a, b }) => pairKey(Number(a), Number(b))));
  const groups = groupGaps(
    rows.map((row) => ({
      ...row,
      closest: Array.isArray(row.closest) ? (row.closest as z.output<typeof ChatSource>[]) : [],
    })),
    similar,
  );
  return { collection_id: collectionId, groups, total: rows.length };
}

export const GetGaps: Impl['GetGaps'] = ({ collection_id, resolved }, ctx) =>
  report(ctx, collection_id, resolved === true);

export const GetGapsExport: Impl['GetGapsExport'] = async ({ collection_id, resolved }, ctx) => {
  const gaps = await report(ctx, collection_id, resolved === true);
  // Recorded once the report was read (its standing checked), before anything is answered.
  const { run, db } = chatDb(ctx);
  await run(
    recorded(db, {
      action: 'chat.gaps_export',
      actor: auditActor(ctx),
      object: { type: 'collection', id: collection_id },
      detail: { groups: gaps.groups.length, questions: gaps.total, resolved: resolved === true },
    }),
  );
  const csv = gapsCsv(gaps);
  return {
    body: csv,
    contentType: 'text/csv; charset=utf-8',
    filename: `gaps-${collection_id.slice(0, 8)}-${new Date().toISOString().slice(0, 10)}.csv`,
  };
};

/** Resolves (or reopens) the questions the caller keeps; ids of others are not there: 404 if none is. */
export const PostGapsResolved: Impl['PostGapsResolved'] = async ({ body }, ctx) => {
  const { run, db } = chatDb(ctx);
  const changed = await run(store.resolveGaps(db, [...new Set(body.ids)], body.resolved));
  if (changed.length === 0) throw new AppError('not_found', { detail: 'No such gap question.' });
};
