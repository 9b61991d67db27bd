import { raisedLimit, sqlStateOf } from '#shared/db/sql-state';
import { AppError } from '#shared/errors/app-error';

/** SQLSTATE of kbchat_collection_quota (db/functions): the collection is at its limit. */
const COLLECTION_FULL = 'KBQ02';
/** The limits kbchat_collection_quota names in its MESSAGE. */
const COLLECTION_LIMITS = ['collection_max_files', 'collection_max_bytes'];

/**
 * The 413 of a file that would take its collection past a limit (an upload or a move: the
 * trigger refuses both), naming the limit and how far it is used; undefined for other errors.
 */
export function collectionFull(err: unknown): AppError | undefined {
  if (sqlStateOf(err) !== COLLECTION_FULL) return undefined;
  return new AppError('collection_limit_reached', {
    members: { ...raisedLimit(err, COLLECTION_LIMITS) },
    cause: err,
  });
}
