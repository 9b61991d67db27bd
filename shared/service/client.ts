import type { z } from 'zod';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, type FieldIssue } from '../errors/app-error';
import { ACCESS_DENIED_TEXT, AuthError, UNAUTHORISED_TEXT } from './auth-failure';
import { filenameFromDisposition, type DownloadedFile } from './file-download';
import { readSse } from './sse';
import type { ClientResultOf, InputOf, ParamPlan, Route, Service } from './types';

/**
 * A typed HTTP client built from a service declaration: the same routes, parameter placement
 * and answers as mountService, seen from the caller.
 *
 * - Methods take the named parameters and place them as the server reads them (path, query,
 *   form, JSON body, multipart).
 * - `{"data": …}` answers resolve to the data, parsed with the output schema (so enums decode
 *   unknown names to UNKNOWN); 204 resolves to undefined.
 * - Failures throw AppError with the problem's status, code, detail and field list; the
 *   plain-text 401/403 throw AuthError.
 * - Streaming methods resolve, once the stream has started, to an async iterable of
 *   `{ event, data }`: `message` for plain messages, declared named events by name. An `error`
 *   event the method does not declare is thrown as AppError; other undeclared events are
 *   skipped, so older clients survive newer servers. The method's `streamEnd` line ends the
 *   iteration. Leaving the loop early cancels the stream. A streaming method that also
 *   declares an `output` may answer JSON instead (as its request chooses): that resolves to
 *   the data, as for any output.
 * - File downloads resolve to the body stream with its type, file name and size.
 */

export interface ClientOptions {
  /** Origin (or base URL) of the deployment; the module prefix is appended. */
  baseUrl: string;
  fetch?: (request: Request) => Promise<Response>;
  /** Sent as `Authorization: Bearer <token>`; a function is asked before every call. */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  headers?: Record<string, string>;
}

export interface CallInit {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type ClientMethod<M> =
  Record<never, never> extends InputOf<M>
    ? (params?: InputOf<M>, init?: CallInit) => Promise<ClientResultOf<M>>
    : (params: InputOf<M>, init?: CallInit) => Promise<ClientResultOf<M>>;

export type ServiceClient<S extends Service> = {
  [K in keyof S['methods'] & string]: ClientMethod<S['methods'][K]>;
};

export function createClient<S extends Service>(
  service: S,
  options: ClientOptions,
): ServiceClient<S> {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const client: Record<
    string,
    (params?: Record<string, unknown>, init?: CallInit) => Promise<unknown>
  > = {};
  for (const route of service.routes) {
    client[route.name] = async (params = {}, init = {}) => {
      const request = buildRequest(route, params, options, init, await tokenOf(options));
      const response = await send(request);
      const redirected = route.response.kind === 'redirect' && response.status === 302;
      if (!response.ok && !redirected) throw await errorOf(response);
      return readAnswer(route, response);
    };
  }
  return client as ServiceClient<S>;
}

async function tokenOf(options: ClientOptions): Promise<string | undefined> {
  return typeof options.token === 'function' ? await options.token() : options.token;
}

export function buildRequest(
  route: Route,
  params: Record<string, unknown>,
  options: ClientOptions,
  init: CallInit = {},
  token?: string,
): Request {
  const url = new URL(options.baseUrl.replace(/\/+$/, '') + pathOf(route, params));
  const headers = new Headers({ ...options.headers, ...init.headers });
  const answer = route.response;
  headers.set(
    'Accept',
    answer.kind !== 'stream'
      ? 'application/json'
      : answer.output
        ? 'text/event-stream, application/json'
        : 'text/event-stream',
  );
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  const form = route.body === 'multipart' ? new FormData() : new URLSearchParams();
  let hasForm = false;
  for (const plan of route.params) {
    const value = params[plan.name];
    if (value === undefined) continue;
    switch (plan.source) {
      case 'query':
        appendAll(plan.name, value, (k, v) => url.searchParams.append(k, v));
        break;
      case 'query-fields':
        spreadFields(plan, value, (k, v) => url.searchParams.append(k, v));
        break;
      case 'form':
        hasForm = true;
        appendAll(plan.name, value, (k, v) => form.append(k, v));
        break;
      case 'form-fields':
        hasForm = true;
        spreadFields(plan, value, (k, v) => form.append(k, v));
        break;
      case 'file':
        hasForm = true;
        for (const file of Array.isArray(value) ? value : [value])
          (form as FormData).append(plan.name, file as File);
        break;
      case 'json-part':
        hasForm = true;
        form.append(plan.name, JSON.stringify(value));
        break;
      case 'json-body':
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(value);
        break;
      case 'path':
        break;
    }
  }
  if (hasForm) body = form;
  // A redirect is the answer itself (its Location), not something for the client to follow.
  const redirect = answer.kind === 'redirect' ? 'manual' : 'follow';
  return new Request(url, {
    method: route.httpMethod,
    headers,
    body,
    signal: init.signal,
    redirect,
  });
}

function pathOf(route: Route, params: Record<string, unknown>): string {
  return route.fullPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined)
      throw new AppError('validation_failed', { detail: `Missing path parameter ${name}.` });
    return encodeURIComponent(text(value));
  });
}

function text(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

function appendAll(
  name: string,
  value: unknown,
  append: (key: string, value: string) => void,
): void {
  for (const item of Array.isArray(value) ? value : [value]) append(name, text(item));
}

function spreadFields(
  plan: ParamPlan,
  value: unknown,
  append: (key: string, value: string) => void,
): void {
  const object = (value ?? {}) as Record<string, unknown>;
  for (const field of plan.fields) {
    if (object[field.name] !== undefined) appendAll(field.name, object[field.name], append);
  }
}

async function errorOf(response: Response): Promise<AppError> {
  const type = response.headers.get('Content-Type') ?? '';
  const body = await response.text();
  if (type.includes('json')) {
    try {
      const problem = JSON.parse(body) as { code?: string; detail?: string; errors?: FieldIssue[] };
      if (typeof problem.code === 'string') {
        return AppError.foreign(
          response.status as ContentfulStatusCode,
          problem.code,
          problem.detail ?? '',
          { errors: problem.errors },
        );
      }
    } catch {
      // Not a problem document after all: described generically below.
    }
  }
  if (response.status === 401 && body === UNAUTHORISED_TEXT) return new AuthError(401);
  if (response.status === 403 && body === ACCESS_DENIED_TEXT) return new AuthError(403);
  return AppError.foreign(
    response.status as ContentfulStatusCode,
    `http_${response.status}`,
    body.slice(0, 200) || response.statusText || 'Request failed',
  );
}

async function readAnswer(route: Route, response: Response): Promise<unknown> {
  const answer = route.response;
  switch (answer.kind) {
    case 'empty':
      await response.body?.cancel();
      return undefined;
    case 'data': {
      if (response.status === 204) return undefined;
      const body = (await response.json()) as { data?: unknown };
      return parseAnswer(answer.schema, answer.envelope ? body.data : body);
    }
    case 'file':
      return downloaded(response);
    case 'redirect':
      await response.body?.cancel();
      return { location: response.headers.get('Location') ?? '' };
    case 'response':
      return response;
    case 'stream': {
      const type = response.headers.get('Content-Type') ?? '';
      if (answer.output && !type.startsWith('text/event-stream')) {
        if (response.status === 204) return undefined;
        const body = (await response.json()) as { data?: unknown };
        return parseAnswer(answer.output.schema, answer.output.envelope ? body.data : body);
      }
      return streamOf(answer.message, answer.events, response, answer.end);
    }
  }
}

function parseAnswer(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AppError('invalid_response', {
    detail: 'The service answered with data that does not fit its declaration.',
    cause: result.error,
  });
}

function downloaded(response: Response): DownloadedFile {
  const length = response.headers.get('Content-Length');
  return {
    body: response.body ?? new ReadableStream(),
    contentType: response.headers.get('Content-Type') ?? 'application/octet-stream',
    filename: filenameFromDisposition(response.headers.get('Content-Disposition')),
    size: length === null ? undefined : Number(length),
  };
}

async function* streamOf(
  message: z.ZodType,
  events: Readonly<Record<string, z.ZodType>>,
  response: Response,
  end?: string,
): AsyncGenerator<{ event: string; data: unknown }> {
  if (!response.body) return;
  for await (const { event, data } of readSse(response.body)) {
    if (event === 'message' && end !== undefined && data === end) return;
    const schema = event === 'message' ? message : events[event];
    if (schema) {
      yield { event, data: parseAnswer(schema, JSON.parse(data)) };
    } else if (event === 'error') {
      const problem = JSON.parse(data) as {
        status?: number;
        code?: string;
        detail?: string;
        errors?: FieldIssue[];
      };
      throw AppError.foreign(
        (problem.status ?? 500) as ContentfulStatusCode,
        problem.code ?? 'stream_failed',
        problem.detail ?? 'The stream failed.',
        { errors: problem.errors },
      );
    }
  }
}
