import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError } from './app-error';
import { describeError, toAppError } from './classify';
import { problemResponse } from './problem';

/**
 * Maps every error to the one JSON error shape. Known errors keep their status and safe
 * message; anything else is a 500 with a generic text, its details only in the log.
 */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return problemResponse(
      c,
      AppError.foreign(status, `http_${status}`, err.message || 'Request failed'),
    );
  }
  const known = toAppError(err);
  logFailure(c, known.status, known.code, err);
  return problemResponse(c, known);
};

export const onNotFound: NotFoundHandler = (c) =>
  problemResponse(
    c,
    new AppError('not_found', { detail: `No route for ${c.req.method} ${c.req.path}` }),
  );

function logFailure(c: Context, status: number, code: string, err: unknown): void {
  const log = c.get('log');
  if (!log) return;
  const fields = { status, code, error: describeError(err) };
  if (status >= 500) log.error('request failed', fields);
  else log.info('request refused', fields);
}
