import type { Context } from 'hono';
import type { z } from 'zod';
import type { ErrorCode } from '../errors/catalogue';
import type { Logger } from '../log/logger';
import type { AnnotationStore } from './annotation-store';
import type { Annotation } from './annotations';
import type { Credential } from './credential';
import type { DownloadedFile, FileDownload, FileDownloadSpec } from './file-download';
import type { HttpMethod, RoutePattern } from './naming';
import type { Redirect, RedirectSpec } from './redirect';
import type { SseEvent } from './sse';
import type { TagCheck } from './validate-tags';
import type { WebAnswer, WebResponseSpec } from './web-response';

// ---- The declaration: plain data a worker writes once. ----

/** Named parameters; each schema says the type, optionality and constraints. */
export type ParamShape = Record<string, z.ZodType>;
/** Named SSE events a streaming method may send besides its plain messages. */
export type EventShape = Record<string, z.ZodType>;
export type OutputSpec = z.ZodType | FileDownloadSpec | RedirectSpec | WebResponseSpec;

export interface MethodSpec {
  /** Becomes the OpenAPI description; holds the method's annotations. */
  readonly doc?: string;
  readonly params?: ParamShape;
  /**
   * The data of a 200 `{"data": …}` answer, or `fileDownload()`; absent means 204. On a
   * streaming method: what the implementation may return instead of a stream (a plain value,
   * answered as JSON like any output), for protocols where the request chooses (`stream: false`).
   */
  readonly output?: OutputSpec;
  /**
   * false: answer the output as the bare JSON document, without the `{"data": …}` envelope,
   * for documents whose format a standard fixes (a JWKS). Default true.
   */
  readonly envelope?: boolean;
  /** The message schema of a `@handler(streamResponse)` method. */
  readonly stream?: z.ZodType;
  readonly events?: EventShape;
  /**
   * A raw `data:` line (not JSON) that ends a stream which completed, e.g. OpenAI's `[DONE]`:
   * written after the implementation's last message, never after a failure's last message.
   */
  readonly streamEnd?: string;
  /**
   * 'openai': the route speaks OpenAI's protocol, whose SDKs read a failure only from
   * `{"error": {message, type, param, code}}`. Its problem documents also carry that member,
   * and its 401/403 are problem documents too (the spec's plain-text bodies are for the
   * spec's routes).
   */
  readonly errorProtocol?: 'openai';
  /**
   * Catalogue codes the route answers beyond the common refusals (400 validation, 401, 403,
   * and the `default` problem): the OpenAPI document lists each under its status, with the
   * members and headers its catalogue entry declares (a 429's `resets_at` and Retry-After). A
   * status listed here is described as exactly these codes: list every code of that status the
   * route can answer.
   */
  readonly errors?: readonly ErrorCode[];
}

export type MethodMap = Record<string, MethodSpec>;

export interface ServiceSpec<M extends MethodMap, AnnotatedOnly extends boolean = false> {
  /** Short identifier of the service, e.g. `knowledge`. */
  readonly name: string;
  /** Module path prefix, e.g. `/moduleknowledge`. */
  readonly prefix: string;
  /** Becomes the OpenAPI `info.description`. */
  readonly doc?: string;
  /** 0 (default): snake_case paths; 1: lowercased paths. */
  readonly routePattern?: RoutePattern;
  /** Expose over RPC only the methods annotated `@grpc` (the generator's `--annotated_only`). */
  readonly annotatedOnly?: AnnotatedOnly;
  /** Version of the service's API, for the OpenAPI `info.version`. */
  readonly version?: string;
  readonly methods: M;
}

// ---- The compiled form defineService derives from it. ----

/**
 * Where a parameter's value comes from on HTTP:
 * - `path`: a `:name` segment of the route path;
 * - `query` / `form`: one query-string parameter / form field (repeated for lists);
 * - `query-fields` / `form-fields`: an object whose fields are each their own query parameter
 *   or form field;
 * - `json-body`: the whole JSON request body;
 * - `json-part`: a multipart part holding JSON text;
 * - `file`: a multipart file part (repeated for lists).
 */
export type ParamSource =
  'path' | 'query' | 'form' | 'query-fields' | 'form-fields' | 'json-body' | 'json-part' | 'file';

export interface FieldPlan {
  readonly name: string;
  readonly schema: z.ZodType;
}

/** One `@validate` rule attached to a parameter; `path` leads inside an object parameter. */
export interface TargetCheck {
  readonly path: readonly string[];
  readonly check: TagCheck;
}

export interface ParamPlan {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly optional: boolean;
  readonly source: ParamSource;
  /** The object's fields, for `query-fields` and `form-fields`. */
  readonly fields: readonly FieldPlan[];
  readonly checks: readonly TargetCheck[];
}

/** How the request body is encoded: nothing, JSON, a form (urlencoded or multipart), multipart. */
export type BodyKind = 'none' | 'json' | 'form' | 'multipart';

export type ResponsePlan =
  | { readonly kind: 'data'; readonly schema: z.ZodType; readonly envelope: boolean }
  | { readonly kind: 'empty' }
  | {
      readonly kind: 'stream';
      readonly message: z.ZodType;
      readonly events: EventShape;
      /** What a plain (non-stream) result of the implementation is answered as. */
      readonly output?: { readonly schema: z.ZodType; readonly envelope: boolean };
      /** The raw data line that ends a completed stream. */
      readonly end?: string;
    }
  | { readonly kind: 'file'; readonly contentTypes: readonly string[] }
  | { readonly kind: 'redirect' }
  /** The implementation's own `Response` (web-response.ts): its statuses, as declared. */
  | { readonly kind: 'response'; readonly answers: Readonly<Record<string, WebAnswer>> };

export interface Route {
  /** The method name; keys the annotation stores. */
  readonly name: string;
  readonly httpMethod: HttpMethod;
  /** Path relative to the module prefix, with `:param` segments (Hono syntax). */
  readonly path: string;
  /** The path with the module prefix. */
  readonly fullPath: string;
  readonly doc: string;
  readonly annotations: readonly Annotation[];
  /** Parameters of `@role`, or undefined when the route has none. */
  readonly roles: readonly string[] | undefined;
  /** The one kind of credential the route takes (`@credential`); undefined: any. */
  readonly credential: Credential | undefined;
  /** Names from `@middleware`, in order. */
  readonly middlewares: readonly string[];
  readonly body: BodyKind;
  readonly params: readonly ParamPlan[];
  readonly response: ResponsePlan;
  /** Exposed by rpcEntrypoint. */
  readonly rpc: boolean;
  /** MethodSpec.errorProtocol. */
  readonly errorProtocol: 'openai' | undefined;
  /** MethodSpec.errors: the codes the route answers beyond the common refusals. */
  readonly errors: readonly ErrorCode[];
}

export interface Service<M extends MethodMap = MethodMap, AnnotatedOnly extends boolean = boolean> {
  readonly name: string;
  readonly prefix: string;
  readonly doc: string;
  readonly version: string;
  readonly routePattern: RoutePattern;
  readonly annotatedOnly: AnnotatedOnly;
  readonly methods: M;
  /** Every method's route, in declaration order. */
  readonly routes: readonly Route[];
  /** REST annotations by route name (the spec's RouteAnnotationStore). */
  readonly routeAnnotations: AnnotationStore;
  /** RPC annotations by method name, RPC-exposed methods only (MethodAnnotationStore). */
  readonly methodAnnotations: AnnotationStore;
}

// ---- Types derived from a method declaration. ----

type NoKeys = Record<never, never>;
type ParamsOf<M> = M extends { readonly params: infer P extends ParamShape } ? P : NoKeys;
type EventsOf<M> = M extends { readonly events: infer E extends EventShape } ? E : NoKeys;
type MessageOf<M> = M extends { readonly stream: infer S extends z.ZodType } ? S : never;

/** What a caller passes: the schemas' input types, optional keys optional. */
export type InputOf<M> = z.input<z.ZodObject<ParamsOf<M>>>;
/** What the implementation receives: validated, coerced, defaults applied. */
export type ParamsFor<M> = z.output<z.ZodObject<ParamsOf<M>>>;

type NamedEvents<M> = {
  [K in keyof EventsOf<M> & string]: SseEvent<K, z.output<EventsOf<M>[K]>>;
}[keyof EventsOf<M> & string];

/** What a streaming implementation yields: a plain message or `sseEvent(name, data)`. */
export type StreamYield<M> = z.output<MessageOf<M>> | NamedEvents<M>;

/** What a streaming method's client iterates over. */
export type StreamItem<M> =
  | { event: 'message'; data: z.output<MessageOf<M>> }
  | {
      [K in keyof EventsOf<M> & string]: { event: K; data: z.output<EventsOf<M>[K]> };
    }[keyof EventsOf<M> & string];

/** A streaming method's plain answer, when it declares an `output` besides its stream. */
type PlainOf<M> = M extends { readonly output: infer O extends z.ZodType } ? z.output<O> : never;

/** What the implementation of a method returns (or resolves to). */
export type ResultOf<M> = M extends { readonly stream: z.ZodType }
  ? AsyncIterable<StreamYield<M>> | PlainOf<M>
  : M extends { readonly output: FileDownloadSpec }
    ? FileDownload
    : M extends { readonly output: WebResponseSpec }
      ? Response
      : M extends { readonly output: RedirectSpec }
        ? Redirect
        : M extends { readonly output: infer O extends z.ZodType }
          ? z.output<O>
          : void;

/** What a client call resolves to. */
export type ClientResultOf<M> = M extends { readonly stream: z.ZodType }
  ? AsyncIterable<StreamItem<M>> | PlainOf<M>
  : M extends { readonly output: FileDownloadSpec }
    ? DownloadedFile
    : M extends { readonly output: WebResponseSpec }
      ? Response
      : M extends { readonly output: RedirectSpec }
        ? Redirect
        : M extends { readonly output: infer O extends z.ZodType }
          ? z.output<O>
          : void;

/**
 * Methods rpcEntrypoint exposes: neither streaming nor file download, and with
 * `annotatedOnly: true` only those whose doc text holds `@grpc`.
 */
export type RpcMethodNames<S extends Service> = {
  [K in keyof S['methods'] & string]: S['methods'][K] extends { readonly stream: z.ZodType }
    ? never
    : S['methods'][K] extends { readonly output: FileDownloadSpec | RedirectSpec | WebResponseSpec }
      ? never
      : S['annotatedOnly'] extends true
        ? S['methods'][K] extends { readonly doc: `${string}@grpc${string}` }
          ? K
          : never
        : K;
}[keyof S['methods'] & string];

// ---- The implementation side. ----

/** What every call gets besides its parameters, the same over HTTP and RPC. */
export interface CallContext<Bindings = unknown, Principal = unknown> {
  /** Route name = method name. */
  readonly route: string;
  /** What the authorize hook returned: the logged-in user, typically. */
  readonly principal: Principal | undefined;
  readonly env: Bindings;
  /** Aborts when the HTTP client goes away. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  readonly requestId: string | undefined;
  /** Keeps the worker alive for work that outlasts the response. */
  waitUntil(promise: Promise<unknown>): void;
  /** The Hono context on HTTP calls, undefined on RPC calls. */
  readonly http: Context | undefined;
}

export type MethodImpl<M, Bindings = unknown, Principal = unknown> = (
  params: ParamsFor<M>,
  ctx: CallContext<Bindings, Principal>,
) => ResultOf<M> | Promise<ResultOf<M>>;

export type ServiceImpl<S extends Service, Bindings = unknown, Principal = unknown> = {
  [K in keyof S['methods']]: MethodImpl<S['methods'][K], Bindings, Principal>;
};

/** How the caller of a route proved who it is. */
export type Caller =
  | { readonly transport: 'http'; readonly context: Context }
  | {
      readonly transport: 'rpc';
      readonly identity: unknown;
      /** `/<service>/<Method>`, as a gRPC full method name. */
      readonly fullMethod: string;
    };

export interface AccessRequest<Bindings = unknown> {
  readonly route: string;
  /** The route's `@role` parameters; undefined when it has no `@role`. */
  readonly roles: readonly string[] | undefined;
  /** The one kind of credential the route takes (`@credential`); undefined: any. */
  readonly credential: Credential | undefined;
  readonly annotations: readonly Annotation[];
  readonly env: Bindings;
  readonly caller: Caller;
}

/**
 * Decides whether a call may proceed, before its parameters are read. Throw `unauthorised()`
 * or `accessDenied()` to refuse; return the principal (the logged-in user) to let the call
 * through with it, or undefined for an anonymous call. The same hook serves HTTP and RPC.
 */
export type Authorize<Bindings = unknown, Principal = unknown> = (
  access: AccessRequest<Bindings>,
) => Principal | undefined | Promise<Principal | undefined>;
