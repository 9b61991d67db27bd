import { sqlStateOf } from '#shared/db/sql-state';
import { AppError } from '#shared/errors/app-error';

/** SQLSTATE of kbchat_collection_quota (db/functions): the collection is at its limit. */
const COLLECTION_FULL = 'KBQ02';

/**
 * The 413 of a file that would take its collection past a limit (an upload or a move: the
 * trigger refuses both), naming the limit and how far it is used; undefined for other errors.
 */
export function collectionFull(err: unknown): AppError | undefined {
  if (sqlStateOf(err) !== COLLECTION_FULL) return undefined;
  let found: { limit?: string; detail?: string } = {};
  for (let e: unknown = err, depth = 0; e && depth < 5 && !found.limit; depth++) {
    const { message, detail } = e as { message?: unknown; detail?: unknown };
    if (message === 'collection_max_files' || message === 'collection_max_bytes') {
      found = { limit: message, detail: typeof detail === 'string' ? detail : undefined };
    }
    e = (e as { cause?: unknown }).cause;
  }
  const [used, allowed] = (found.detail ?? '').split(' ').map(Number);
  return new AppError('collection_limit_reached', {
    members: {
      ...(found.limit ? { limit: found.limit } : {}),
      ...(Number.isFinite(used) && found.detail ? { used: used! } : {}),
      ...(Number.isFinite(allowed) && found.detail ? { allowed: allowed! } : {}),
    },
    cause: err,
  });
}
