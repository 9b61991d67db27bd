import type { Context, Env, MiddlewareHandler } from 'hono';
import { AppError } from '../errors/app-error';
import { problemResponse } from '../errors/problem';

/** A route's request-body limit, and the refusal to answer when a body is over it. */
export interface BodyLimit {
  bytes: number;
  /** The 413 to answer (default: `body_too_large`). */
  tooLarge?: () => AppError;
}

export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * The first step of every mounted route, before the token check (which may read a form body
 * for the spec's `t` value) and before anything else reads the body: a declared length over
 * the limit is refused unread; a body without one (chunked) is counted as whoever reads it
 * reads it, and cut off at the limit — nothing is buffered here, and nothing over the limit
 * is ever read. Whatever the reader then made of the cut-off body, the answer is the 413.
 */
export function bodyLimitStep<E extends Env>(
  limitOf: (env: E['Bindings']) => BodyLimit,
): MiddlewareHandler<E> {
  return async (c, next) => {
    const limit = limitOf(c.env);
    const tooLarge = () =>
      limit.tooLarge?.() ??
      new AppError('body_too_large', {
        detail: `Request bodies are limited to ${limit.bytes} bytes.`,
      });
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header('Content-Length');
    if (declared !== undefined && !c.req.header('Transfer-Encoding')) {
      // The runtime ends the body at the declared length: trusting it reads nothing.
      if (!/^\d+$/.test(declared) || Number(declared) > limit.bytes) throw tooLarge();
      return next();
    }
    let exceeded = false;
    c.req.raw = new Request(c.req.raw, {
      body: body.pipeThrough(countingStream(limit.bytes, () => (exceeded = true))),
      // @ts-expect-error duplex is required for streamed request bodies, and not yet typed
      duplex: 'half',
    });
    await next();
    if (exceeded) answerTooLarge(c, tooLarge());
  };
}

function countingStream(limit: number, onExceeded: () => void) {
  let size = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) {
        onExceeded();
        controller.error(new Error('request body over the limit'));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

function answerTooLarge(c: Context, error: AppError): void {
  // The cut-off body is the cause of whatever the readers answered (a 401 for a form token
  // that could not be read, a 400): the error of record becomes the 413.
  c.error = error;
  c.res = undefined;
  c.res = problemResponse(c, error);
}
