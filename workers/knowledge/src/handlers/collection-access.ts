import { notFound } from '#shared/errors/app-error';
import { accessDenied } from '#shared/service';
import { knowledgeDb, type KnowledgeCall } from '../call';
import { COLLECTION_ROLES, type CollectionRole } from '../db/schema';
import { readableAmong, readableCollection, type CollectionView } from '../store/collections';
import { smallScopeQuery } from '../store/search';

const rank = (role: CollectionRole) => COLLECTION_ROLES.indexOf(role);

/**
 * A collection the caller holds at least `min` in. One they cannot read answers 404, as if it
 * did not exist (its name and existence stay theirs); one they only hold a lesser role in
 * answers 403, since they know it exists.
 */
export async function collectionFor(
  ctx: KnowledgeCall,
  id: string,
  min: CollectionRole,
): Promise<CollectionView> {
  const kdb = knowledgeDb(ctx);
  const [found] = await kdb.run(readableCollection(kdb.db, id));
  if (!found) throw notFound('collection');
  if (rank(found.role) < rank(min)) throw accessDenied(`needs ${min} in the collection`);
  return found;
}

/**
 * Collections a request names as a filter (list, query, chat): every one must be readable, or
 * the request answers 404 rather than quietly searching less than it asked for.
 */
export async function requireReadable(ctx: KnowledgeCall, ids: readonly string[] | undefined) {
  if (!ids) return;
  const kdb = knowledgeDb(ctx);
  const found = await kdb.run(readableAmong(kdb.db, ids));
  if (found.length < ids.length) throw notFound('collection');
}

/** The files the caller can read, if they are a small scope (store/search.ts SMALL_SCOPE). */
export async function smallReadableScope(ctx: KnowledgeCall): Promise<string[] | undefined> {
  const kdb = knowledgeDb(ctx);
  const { rows } = await kdb.run(kdb.db.execute<{ ids: string[] | null }>(smallScopeQuery()));
  return rows[0]?.ids ?? undefined;
}
