import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError } from './app-error';

/**
 * What any thrown value means for the caller, the same over HTTP and RPC: an AppError keeps
 * its status and message; a database that cannot be reached is a 503; anything else is a
 * 500 with a generic message (the details go to the log only).
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) {
    return new AppError('database_unavailable', {
      detail: 'The database is unavailable.',
      cause: err,
    });
  }
  return new AppError('internal_error', { cause: err });
}

/**
 * An error for the log: name, message and causes, without the values a failed query carried
 * (drizzle puts every parameter in its message; they may be password hashes or user text).
 */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e && parts.length < 4; e = (e as { cause?: unknown }).cause) {
    if (!(e instanceof Error)) {
      parts.push('non-Error thrown');
      break;
    }
    parts.push(`${e.name}: ${withoutParams(e.message)}`);
  }
  return parts.join(' (cause: ') + ')'.repeat(Math.max(0, parts.length - 1));
}

const withoutParams = (message: string) => message.replace(/\nparams:[\s\S]*$/, '');
