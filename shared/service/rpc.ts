import { WorkerEntrypoint } from 'cloudflare:workers';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, type FieldIssue } from '../errors/app-error';
import { describeError, toAppError } from '../errors/classify';
import { createLogger } from '../log/logger';
import { methodNameOf } from './annotation-store';
import { AuthError } from './auth-failure';
import { rpcCallContext } from './call-context';
import { startCallUsage, type CallUsage } from './call-usage';
import { ServiceDeclarationError } from './compile-route';
import type {
  Authorize,
  ClientResultOf,
  InputOf,
  Route,
  RpcMethodNames,
  Service,
  ServiceImpl,
} from './types';
import { validateParams } from './validation';

/**
 * The spec's in-process gRPC, rebuilt as Workers service-binding JS RPC.
 *
 * Call shape: `binding.GetQuery(params, meta)`. `params` is the object of named parameters
 * (the spec's "all parameters become fields of one request message"); `meta` carries what
 * gRPC puts in its context: the caller's `identity` (handed to the authorize hook, as the
 * interceptor reads credentials from metadata) and a `requestId` to keep log lines joined.
 *
 * Error transport: JS RPC keeps only an Error's name and message, so methods never throw
 * across the binding; they resolve to an {@link RpcResult}. `rpcClient` (or `unwrapRpc`)
 * turns a failure back into an AppError with the same status, code, message and field list
 * (an AuthError for `unauthenticated` / `permission_denied`). Unexpected errors are logged on
 * the callee and cross as a generic `internal_error`.
 */

export interface RpcMetadata {
  identity?: unknown;
  requestId?: string;
}

export interface RpcFailure {
  status: number;
  code: string;
  message: string;
  errors?: FieldIssue[];
}

/** `usage`: model tokens the call spent for the caller (call-usage.ts), when it spent any. */
export type RpcResult<T> =
  { ok: true; data: T; usage?: CallUsage } | { ok: false; error: RpcFailure };

/** The service binding's type, as the calling worker declares it in its Env. */
export type RpcBindingOf<S extends Service> = {
  [K in RpcMethodNames<S>]: (
    params: InputOf<S['methods'][K]>,
    meta?: RpcMetadata,
  ) => Promise<RpcResult<ClientResultOf<S['methods'][K]>>>;
};

/** The unwrapped client over a binding: resolves to the data, throws AppError. */
export type RpcClientOf<S extends Service> = {
  [K in RpcMethodNames<S>]: Record<never, never> extends InputOf<S['methods'][K]>
    ? (params?: InputOf<S['methods'][K]>) => Promise<ClientResultOf<S['methods'][K]>>
    : (params: InputOf<S['methods'][K]>) => Promise<ClientResultOf<S['methods'][K]>>;
};

export interface RpcOptions<Bindings = unknown, Principal = unknown> {
  /** The same hook as mountService's, called with `caller: { transport: 'rpc', identity }`. */
  authorize?: Authorize<Bindings, Principal>;
  /** The same hook as mountService's: after the implementation, before the answer. */
  settle?: (principal: unknown) => Promise<void>;
  /** HTTP handler for the entrypoint's `fetch`, e.g. the module's Hono app. */
  fetch?: (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>;
}

export type RpcEntrypointClass<S extends Service, Bindings> = new (
  ctx: ExecutionContext,
  env: Bindings,
) => WorkerEntrypoint<Bindings> & RpcBindingOf<S>;

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * A WorkerEntrypoint class with one method per RPC-exposed service method. Export it from
 * the worker (as default, with `fetch`, or named) and bind it from the caller.
 */
export function rpcEntrypoint<S extends Service, Bindings = unknown, Principal = unknown>(
  service: S,
  impl: ServiceImpl<S, Bindings, Principal>,
  options: RpcOptions<Bindings, Principal> = {},
): RpcEntrypointClass<S, Bindings> {
  const exposed = service.routes.filter((route) => route.rpc);
  for (const route of exposed) {
    if (typeof (impl as Record<string, unknown>)[route.name] !== 'function') {
      throw new ServiceDeclarationError(`${service.name}: no implementation for ${route.name}`);
    }
    if (route.roles && !options.authorize) {
      throw new ServiceDeclarationError(
        `${service.name}.${route.name} declares @role but no authorize hook was given to check it`,
      );
    }
  }

  class ServiceEntrypoint extends WorkerEntrypoint<Bindings> {}
  const members = (self: ServiceEntrypoint) =>
    self as unknown as { env: Bindings; ctx: ExecutionContext };

  for (const route of exposed) {
    const call = callerOf(service, route, impl, options);
    Object.defineProperty(ServiceEntrypoint.prototype, route.name, {
      value: function (this: ServiceEntrypoint, params: unknown, meta?: RpcMetadata) {
        const { env, ctx } = members(this);
        return call(env, ctx, params, meta);
      },
      configurable: true,
      writable: true,
    });
  }
  const handleFetch = options.fetch;
  if (handleFetch) {
    Object.defineProperty(ServiceEntrypoint.prototype, 'fetch', {
      value: function (this: ServiceEntrypoint, request: Request) {
        const { env, ctx } = members(this);
        return handleFetch(request, env, ctx);
      },
      configurable: true,
      writable: true,
    });
  }
  return ServiceEntrypoint as unknown as RpcEntrypointClass<S, Bindings>;
}

function callerOf<S extends Service, Bindings, Principal>(
  service: S,
  route: Route,
  impl: ServiceImpl<S, Bindings, Principal>,
  options: RpcOptions<Bindings, Principal>,
) {
  const run = (impl as Record<string, (params: unknown, ctx: unknown) => unknown>)[route.name]!;
  // The annotations are looked up as the spec's interceptor does: by the text after the last
  // "/" of the full method name, in the method (RPC) store.
  const fullMethod = `/${service.name}/${route.name}`;
  const name = methodNameOf(fullMethod);
  return async (
    env: Bindings,
    ctx: ExecutionContext,
    params: unknown,
    meta: RpcMetadata | undefined,
  ): Promise<RpcResult<unknown>> => {
    const requestId =
      typeof meta?.requestId === 'string' && REQUEST_ID.test(meta.requestId)
        ? meta.requestId
        : crypto.randomUUID();
    try {
      const principal = await options.authorize?.({
        route: name,
        roles: service.methodAnnotations.getParams(name, 'role'),
        credential: route.credential,
        annotations: service.methodAnnotations.annotationsOf(name),
        env,
        caller: { transport: 'rpc', identity: meta?.identity, fullMethod },
      });
      let data: unknown;
      let usage: CallUsage | undefined;
      try {
        const raw = params !== null && typeof params === 'object' ? params : {};
        const valid = validateParams(route, raw as Record<string, unknown>, 'rpc');
        const context = rpcCallContext({
          route,
          serviceName: service.name,
          principal,
          env,
          ctx,
          requestId,
        });
        usage = startCallUsage(context);
        data = await run(valid, context);
      } catch (err) {
        // A refusal of the caller (an ended session) comes before whatever else went wrong.
        await options.settle?.(principal);
        throw err;
      }
      await options.settle?.(principal);
      return { ok: true, data, ...(usage?.embedding_tokens ? { usage } : {}) };
    } catch (err) {
      return { ok: false, error: failureOf(err, service.name, route.name, requestId) };
    }
  };
}

function failureOf(
  err: unknown,
  serviceName: string,
  method: string,
  requestId: string,
): RpcFailure {
  const log = createLogger({ module: serviceName, request_id: requestId, rpc: method });
  const known = toAppError(err);
  if (known.status >= 500) {
    log.error('rpc failed', { status: known.status, code: known.code, error: describeError(err) });
  } else {
    const reason = known instanceof AuthError ? known.reason : undefined;
    log.info('rpc refused', {
      status: known.status,
      code: known.code,
      ...(reason ? { reason } : {}),
    });
  }
  return {
    status: known.status,
    code: known.code,
    message: known.message,
    ...(known.errors ? { errors: known.errors } : {}),
  };
}

/** The AppError a failed RPC result stands for. */
export function rpcFailureError(failure: RpcFailure): AppError {
  if (failure.status === 401 && failure.code === 'unauthenticated') return new AuthError(401);
  if (failure.status === 403 && failure.code === 'permission_denied') return new AuthError(403);
  return AppError.foreign(failure.status as ContentfulStatusCode, failure.code, failure.message, {
    errors: failure.errors,
  });
}

export function unwrapRpc<T>(result: RpcResult<T>): T {
  if (result && result.ok === true) return result.data;
  if (result && result.ok === false && result.error) throw rpcFailureError(result.error);
  throw new AppError('rpc_protocol_error');
}

/**
 * Calls a bound service like local functions: `await knowledge.GetQuery({ text, top: 10 })`.
 * `meta` is sent with every call; pass a function to compute it per call.
 */
export function rpcClient<S extends Service>(
  service: S,
  binding: RpcBindingOf<S>,
  meta: RpcMetadata | (() => RpcMetadata) = {},
  /** Told the model tokens each call spent for the caller (usage accounting). */
  onUsage?: (usage: CallUsage) => void,
): RpcClientOf<S> {
  type Remote = (params: unknown, meta: RpcMetadata) => Promise<RpcResult<unknown>>;
  const remote = binding as unknown as Record<string, Remote>;
  const client: Record<string, (params?: unknown) => Promise<unknown>> = {};
  for (const route of service.routes.filter((r) => r.rpc)) {
    client[route.name] = async (params = {}) => {
      const callMeta = typeof meta === 'function' ? meta() : meta;
      // Called as a method so a JS RPC stub keeps its receiver.
      const result = await remote[route.name]!(params, callMeta);
      if (onUsage && result?.ok === true && result.usage) onUsage(result.usage);
      return unwrapRpc(result);
    };
  }
  return client as RpcClientOf<S>;
}
