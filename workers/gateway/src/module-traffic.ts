import type { MiddlewareHandler } from 'hono';
import { AppError } from '#shared/errors/app-error';
import { describeError } from '#shared/errors/classify';
import { problemResponse } from '#shared/errors/problem';
import { createLogger } from '#shared/log/logger';
import { moduleFor } from './routes';

/**
 * Module traffic goes straight through: the response body (SSE included) is streamed, never
 * buffered, and the module sets its own request id, logs and errors.
 *
 * A module that cannot answer at all — its isolate crashed or was restarted, the binding threw
 * — is answered here with the one problem shape: 503 `module_unavailable` and a request id
 * that ties it to the gateway's log line. The error itself (which can carry the runtime's
 * stack and file paths) goes to the log only.
 */
export const moduleTraffic: MiddlewareHandler<{ Bindings: GatewayEnv }> = async (c, next) => {
  const binding = moduleFor(c.req.path);
  if (!binding) return next();
  try {
    return await c.env[binding].fetch(c.req.raw);
  } catch (err) {
    const requestId = crypto.randomUUID();
    c.set('requestId', requestId);
    createLogger({ module: 'kbchat.gateway', request_id: requestId }).error('module unavailable', {
      module: binding.toLowerCase(),
      method: c.req.method,
      path: c.req.path,
      error: describeError(err),
    });
    return problemResponse(c, new AppError('module_unavailable'), {
      'Retry-After': '5',
      'X-Request-Id': requestId,
      'Cache-Control': 'no-store',
    });
  }
};
