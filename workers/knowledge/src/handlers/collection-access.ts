import { notFound } from '../../../../shared/errors/app-error';
import { accessDenied } from '../../../../shared/service';
import { knowledgeDb, type KnowledgeCall } from '../context';
import { COLLECTION_ROLES, type CollectionRole } from '../db/schema';
import { readableCollection, type CollectionView } from '../store/collections';

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
  if (!found) throw notFound('No such collection.');
  if (rank(found.role) < rank(min)) throw accessDenied(`needs ${min} in the collection`);
  return found;
}
