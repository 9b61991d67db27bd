import type { Context, Env, Hono, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { AppError } from '../errors/app-error';
import { problemResponse } from '../errors/problem';
import { AuthError } from './auth-failure';
import { bodyLimitStep, DEFAULT_BODY_LIMIT, type BodyLimit } from './body-limit';
import { httpCallContext } from './call-context';
import { ServiceDeclarationError } from './compile-route';
import { API_REFERENCE_CSP, renderApiReferencePage } from './api-reference-page';
import { DOCS_ROUTE, GUEST_ANNOTATIONS, OPENAPI_ROUTE } from './define';

const GUEST = 'guest';
import { fileDownloadHeaders, fileDownloadStatus, type FileDownload } from './file-download';
import { openApiDocument } from './openapi';
import type { Redirect } from './redirect';
import { readParams } from './read-request';
import { SSE_HEADERS, sseEvent, sseStream } from './sse';
import type { Authorize, Route, Service, ServiceImpl } from './types';
import { validateParams } from './validation';

export interface MountOptions<E extends Env = Env, Principal = unknown> {
  /**
   * Runs first on every route, before the body is read; refuses by throwing `unauthorised()`
   * or `accessDenied()`, answered as plain-text 401 `Unauthorised` / 403 `Access denied`.
   * Required when any route carries `@role`.
   */
  authorize?: Authorize<E['Bindings'], Principal>;
  /**
   * Runs after the implementation and before anything is answered, with what authorize
   * returned; throw to refuse instead (a token whose session turned out to have ended).
   */
  settle?: (principal: unknown) => Promise<void>;
  /**
   * Each route's request-body limit, applied before anything reads the body (the token check
   * included); DEFAULT_BODY_LIMIT (64 KiB) when not given.
   */
  bodyLimit?: (route: Route, env: E['Bindings']) => BodyLimit;
  /** Middlewares that routes pick by name with `@middleware(name)`. */
  middlewares?: Record<string, MiddlewareHandler<E>>;
  /**
   * The last message of a stream whose iterable throws. Return a message or `sseEvent(…)`;
   * return undefined for the default, an `error` event carrying the problem-details body.
   */
  onStreamError?: (err: unknown, info: { route: string; requestId: string | undefined }) => unknown;
  /**
   * Serve `GET <prefix>/openapi.json` and `GET <prefix>/docs` (default true), as guest routes
   * named `OpenApiDocument` and `OpenApiDocs`: the authorize hook sees them with roles
   * `['guest']`.
   */
  openapi?: boolean;
}

export const OPENAPI_PATH = '/openapi.json';
/** Where go-doudou serves the same document: the original's generated clients fetch it there. */
export const GO_DOUDOU_OPENAPI_PATH = '/go-doudou/openapi.json';
export const DOCS_PATH = '/docs';

/**
 * Mounts a service's routes on a module app, created by `createModuleApp` with the service's
 * prefix as its base path. Each route runs, in order: set `routeName` → authorize hook → the
 * route's `@middleware`s → read and validate parameters → the implementation → answer (200
 * `{"data": …}`, 204, SSE or file). Errors reach the app's onError and come out in the one
 * problem-details shape, except auth refusals, which keep the spec's fixed plain text.
 */
export function mountService<E extends Env, S extends Service, Principal = unknown>(
  app: Hono<E>,
  service: S,
  impl: ServiceImpl<S, E['Bindings'], Principal>,
  options: MountOptions<E, Principal> = {},
): Hono<E> {
  assertMountable(service, impl, options);
  const serveDocs = options.openapi ?? true;
  if (serveDocs) mountDocs(app, service, options);
  for (const route of service.routes) {
    const limit = options.bodyLimit;
    const handlers: MiddlewareHandler<E>[] = [
      enterRoute(route),
      bodyLimitStep<E>((env) => limit?.(route, env) ?? { bytes: DEFAULT_BODY_LIMIT }),
      authorizeStep(route, options.authorize),
      ...route.middlewares.map((name) => options.middlewares![name]!),
      handle(service, route, impl, options),
    ];
    app.on(route.httpMethod, route.path, ...(handlers as [MiddlewareHandler<E>]));
  }
  assertPrefix(app, service);
  return app;
}

/**
 * The route name of the request, for middleware registered with `app.use` before the service
 * was mounted (which runs before `c.get('routeName')` is set). Undefined when no route of the
 * service matched.
 */
export function routeNameOf(service: Service, c: Context): string | undefined {
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  const path = routePath(c, -1);
  if (
    method === 'GET' &&
    (path === service.prefix + OPENAPI_PATH || path === service.prefix + GO_DOUDOU_OPENAPI_PATH)
  )
    return OPENAPI_ROUTE;
  if (method === 'GET' && path === service.prefix + DOCS_PATH) return DOCS_ROUTE;
  return service.routes.find((route) => route.httpMethod === method && route.fullPath === path)
    ?.name;
}

/** What the steps before a handler need to know of a route. */
type RouteAccess = Pick<Route, 'name' | 'roles' | 'credential' | 'annotations' | 'errorProtocol'>;

const guestRoute = (name: string): RouteAccess => ({
  name,
  roles: ['guest'],
  credential: undefined,
  annotations: GUEST_ANNOTATIONS,
  errorProtocol: undefined,
});

function assertMountable<E extends Env>(
  service: Service,
  impl: Record<string, unknown>,
  options: MountOptions<E, unknown>,
): void {
  const fail = (message: string): never => {
    throw new ServiceDeclarationError(`${service.name}: ${message}`);
  };
  const known = Object.keys(options.middlewares ?? {});
  for (const route of service.routes) {
    if (typeof impl[route.name] !== 'function') fail(`no implementation for ${route.name}`);
    for (const name of route.middlewares) {
      if (!known.includes(name)) {
        fail(
          `${route.name}: @middleware(${name}) is not among the mounted middlewares [${known.join(', ')}]`,
        );
      }
    }
    if (route.roles && !options.authorize) {
      fail(`${route.name} declares @role but no authorize hook was given to check it`);
    }
    const reserved =
      route.httpMethod === 'GET' &&
      [OPENAPI_PATH, GO_DOUDOU_OPENAPI_PATH, DOCS_PATH].includes(route.path);
    if (reserved && (options.openapi ?? true))
      fail(`${route.name}: GET ${route.path} is the docs route`);
  }
}

function assertPrefix<E extends Env>(app: Hono<E>, service: Service): void {
  const registered = new Set(app.routes.map((route) => `${route.method} ${route.path}`));
  for (const route of service.routes) {
    if (!registered.has(`${route.httpMethod} ${route.fullPath}`)) {
      throw new ServiceDeclarationError(
        `${service.name}: mount it on an app whose base path is ${service.prefix} ` +
          `(createModuleApp({ prefix: '${service.prefix}', … }))`,
      );
    }
  }
}

function enterRoute<E extends Env>(route: RouteAccess): MiddlewareHandler<E> {
  return async (c, next) => {
    c.set('routeName', route.name);
    c.set('errorProtocol', route.errorProtocol);
    await next();
    // onError has already answered in problem JSON; the spec fixes these two bodies as text
    // (another protocol's clients read JSON: theirs stay as onError answered).
    if (c.error instanceof AuthError && !route.errorProtocol) {
      const { message, status, headers } = c.error;
      c.res = undefined;
      c.res = c.text(message, status, headers);
    }
    // What a route that needs a token answers is that user's, and never for a shared cache
    // (a proxy, the browser's back/forward history): data, files, streams and refusals alike.
    if (!route.roles?.includes(GUEST)) c.res.headers.set('Cache-Control', 'no-store');
  };
}

function authorizeStep<E extends Env, Principal>(
  route: RouteAccess,
  authorize: Authorize<E['Bindings'], Principal> | undefined,
): MiddlewareHandler<E> {
  return async (c, next) => {
    if (authorize) {
      const principal = await authorize({
        route: route.name,
        roles: route.roles,
        credential: route.credential,
        annotations: route.annotations,
        env: c.env,
        caller: { transport: 'http', context: c },
      });
      c.set('principal', principal);
    }
    await next();
  };
}

function handle<E extends Env, Principal>(
  service: Service,
  route: Route,
  impl: ServiceImpl<Service, E['Bindings'], Principal>,
  options: MountOptions<E, Principal>,
): MiddlewareHandler<E> {
  const run = impl[route.name] as (params: unknown, ctx: unknown) => unknown;
  return async (c) => {
    let result: unknown;
    try {
      const params = validateParams(route, await readParams(route, c), 'http');
      result = await run(params, httpCallContext(c, route, service.name));
    } catch (err) {
      // A refusal of the caller (an ended session) comes before whatever else went wrong.
      await options.settle?.(c.get('principal'));
      throw err;
    }
    await options.settle?.(c.get('principal'));
    switch (route.response.kind) {
      case 'data':
        if (result === undefined) return c.body(null, 204);
        return c.json(route.response.envelope ? { data: result } : result);
      case 'empty':
        return c.body(null, 204);
      case 'file': {
        const file = result as FileDownload;
        const status = fileDownloadStatus(file);
        if (status === 416) return c.body(null, 416, fileDownloadHeaders(file));
        // Any BodyInit works at run time; Hono's type only lists a narrower set.
        return c.body(file.body as ReadableStream, status, fileDownloadHeaders(file));
      }
      case 'redirect':
        // Headers the implementation set on the context (a cookie) go with it.
        return c.redirect((result as Redirect).location, 302);
      case 'response':
        return result as Response;
      case 'stream': {
        const { output, end } = route.response;
        // A method that also declares an output answers a plain result as JSON.
        if (!isAsyncIterable(result)) {
          if (!output) throw new Error(`${route.name} returned no stream`);
          if (result === undefined) return c.body(null, 204);
          return c.json(output.envelope ? { data: result } : result);
        }
        const stream = sseStream(result, {
          open: true,
          signal: c.req.raw.signal,
          onError: (err) => streamErrorMessage(c, route, err, options),
          ...(end !== undefined ? { end } : {}),
        });
        return c.body(stream, 200, SSE_HEADERS);
      }
    }
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

async function streamErrorMessage<E extends Env>(
  c: Context<E>,
  route: Route,
  err: unknown,
  options: MountOptions<E, unknown>,
): Promise<unknown> {
  const requestId = c.get('requestId');
  c.get('log')?.error('stream failed', { route: route.name, error: String(err) });
  const custom = options.onStreamError?.(err, { route: route.name, requestId });
  if (custom !== undefined) return custom;
  const problem = problemResponse(
    c,
    err instanceof AppError ? err : new AppError('internal_error', { cause: err }),
  );
  return sseEvent('error', await problem.json());
}

function mountDocs<E extends Env, Principal>(
  app: Hono<E>,
  service: Service,
  options: MountOptions<E, Principal>,
): void {
  // Built at mount, so a schema that cannot be described fails when the worker loads.
  const document = openApiDocument(service);
  let page: string | undefined;
  const enter = (name: string) => enterRoute<E>(guestRoute(name));
  const authorize = (name: string) =>
    authorizeStep<E, Principal>(guestRoute(name), options.authorize);
  for (const path of [OPENAPI_PATH, GO_DOUDOU_OPENAPI_PATH]) {
    app.get(path, enter(OPENAPI_ROUTE), authorize(OPENAPI_ROUTE), (c) => c.json(document));
  }
  app.get(DOCS_PATH, enter(DOCS_ROUTE), authorize(DOCS_ROUTE), (c) => {
    page ??= renderApiReferencePage({
      title: document.info.title,
      openApiUrl: `${service.prefix}${OPENAPI_PATH}`,
    });
    c.header('Content-Security-Policy', API_REFERENCE_CSP);
    return c.html(page);
  });
}
