import type { MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';
import { createLogger, parseLogLevel, type Logger } from './logger';

declare module 'hono' {
  interface ContextVariableMap {
    log: Logger;
  }
}

/**
 * Gives every request an id (the incoming `X-Request-Id` when it is well-formed, otherwise a
 * new UUID), returns it in the response header and binds a logger that prints it on every line.
 */
export function requestContext(
  describe: (env: object) => { module: string; logLevel?: string },
): MiddlewareHandler {
  const assignId = requestId({ limitLength: 128 });
  return (c, next) =>
    assignId(c, async () => {
      const { module, logLevel } = describe(c.env ?? {});
      const log = createLogger({ module, request_id: c.get('requestId') }, parseLogLevel(logLevel));
      c.set('log', log);
      const started = Date.now();
      await next();
      log.info('request', {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Date.now() - started,
      });
    });
}
