import type { Context } from 'hono';
import { createLogger, type Logger } from '../log/logger';
import type { CallContext, Route } from './types';

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * The matched route's name (= the service method name), set by mountService before the
     * authorize hook, the route's `@middleware`s and the handler run. Middleware registered
     * with `app.use` before mounting runs earlier; it can use `routeNameOf(service, c)`.
     */
    routeName: string;
    /** What the authorize hook returned for this request. */
    principal: unknown;
  }
}

export function httpCallContext<Bindings, Principal>(
  c: Context,
  route: Route,
  serviceName: string,
): CallContext<Bindings, Principal> {
  return {
    route: route.name,
    principal: c.get('principal') as Principal | undefined,
    env: c.env as Bindings,
    signal: c.req.raw.signal,
    log: (c.get('log') as Logger | undefined) ?? createLogger({ module: serviceName }),
    requestId: c.get('requestId'),
    waitUntil: (promise) => waitUntilOf(c)(promise),
    http: c,
  };
}

export function rpcCallContext<Bindings, Principal>(args: {
  route: Route;
  serviceName: string;
  principal: Principal | undefined;
  env: Bindings;
  ctx: ExecutionContext;
  requestId: string;
}): CallContext<Bindings, Principal> {
  return {
    route: args.route.name,
    principal: args.principal,
    env: args.env,
    // An RPC caller cannot hang up mid-call the way an HTTP client can.
    signal: new AbortController().signal,
    log: createLogger({
      module: args.serviceName,
      request_id: args.requestId,
      rpc: args.route.name,
    }),
    requestId: args.requestId,
    waitUntil: (promise) => args.ctx.waitUntil(promise),
    http: undefined,
  };
}

function waitUntilOf(c: Context): (promise: Promise<unknown>) => void {
  try {
    const executionCtx = c.executionCtx;
    return (promise) => executionCtx.waitUntil(promise);
  } catch {
    // No execution context (app.request in tests): let the promise run, and never reject loudly.
    return (promise) => void promise.catch(() => undefined);
  }
}
