import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../errors/app-error';

/**
 * Refuses a request body over `maxBytes` with 413 in the one error shape, before it is parsed
 * (by Content-Length, or while reading a body sent without one).
 */
export function limitBody(maxBytes: number, tooLarge?: () => AppError): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw (
        tooLarge?.() ??
        new AppError(413, 'body_too_large', `Request bodies are limited to ${maxBytes} bytes.`)
      );
    },
  });
}
