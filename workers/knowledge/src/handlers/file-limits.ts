import { raisedLimit, sqlStateOf } from '#shared/db/sql-state';
import { AppError } from '#shared/errors/app-error';

/** SQLSTATE of kbchat_collection_quota (db/functions): the collection is at its limit. */
const COLLECTION_FULL = 'KBQ02';
/** The limits kbchat_collection_quota names in its MESSAGE. */
const COLLECTION_LIMITS = ['collection_max_files', 'collection_max_bytes'];
/** SQLSTATE of kbchat_user_storage_quota (db/functions): the uploader's stored bytes. */
const STORAGE_FULL = 'KBQ03';
const STORAGE_LIMITS = ['user_max_bytes'];

/**
 * The 413 of a file a storage limit refuses, naming the limit and how far it is used: its
 * collection's files or bytes (an upload or a move: the trigger refuses both), or the bytes its
 * uploader has stored over every collection (an upload); undefined for other errors.
 */
export function fileLimitRefusal(err: unknown): AppError | undefined {
  const state = sqlStateOf(err);
  if (state === COLLECTION_FULL) {
    return new AppError('collection_limit_reached', {
      members: { ...raisedLimit(err, COLLECTION_LIMITS) },
      cause: err,
    });
  }
  if (state === STORAGE_FULL) {
    return new AppError('storage_limit_reached', {
      members: { ...raisedLimit(err, STORAGE_LIMITS) },
      cause: err,
    });
  }
  return undefined;
}
