import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError } from './app-error';
import { problemResponse } from './problem';

/**
 * Maps every error to the one JSON error shape. Known errors keep their status and safe
 * message; anything else is a 500 with a generic text, its details only in the log.
 */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof AppError) {
    logFailure(c, err.status, err.code, err);
    return problemResponse(c, err.status, err.code, err.message, {
      errors: err.errors,
      headers: err.headers,
    });
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return problemResponse(c, status, `http_${status}`, err.message || 'Request failed');
  }
  if (isDatabaseUnavailable(err)) {
    logFailure(c, 503, 'database_unavailable', err);
    return problemResponse(c, 503, 'database_unavailable', 'The database is unavailable.');
  }
  logFailure(c, 500, 'internal_error', err);
  return problemResponse(c, 500, 'internal_error', 'Internal server error.');
};

export const onNotFound: NotFoundHandler = (c) =>
  problemResponse(c, 404, 'not_found', `No route for ${c.req.method} ${c.req.path}`);

function logFailure(c: Context, status: number, code: string, err: unknown): void {
  const log = c.get('log');
  if (!log) return;
  const fields = { status, code, error: describe(err) };
  if (status >= 500) log.error('request failed', fields);
  else log.info('request refused', fields);
}

/**
 * The error for the log: name, message and cause, without the values a failed query carried
 * (drizzle puts every parameter in its message; they may be password hashes or user text).
 */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return 'non-Error thrown';
  const cause = err.cause instanceof Error ? ` (cause: ${withoutParams(err.cause.message)})` : '';
  return `${err.name}: ${withoutParams(err.message)}${cause}`;
}

const withoutParams = (message: string) => message.replace(/\nparams:[\s\S]*$/, '');
