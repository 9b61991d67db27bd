import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERRORS, errorDetail, type ErrorCode } from './catalogue';

/** One field that failed validation, as reported to the client. */
export interface FieldIssue {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  /** The wire's English detail when it should say more than the catalogue (a limit, a name). */
  detail?: string;
  /** For the log only, never the wire. */
  cause?: unknown;
  errors?: FieldIssue[];
  headers?: Record<string, string>;
  /** Members the problem document carries besides its own (e.g. `resets_at` of a 429). */
  members?: Record<string, string | number>;
}

/**
 * The one error type the service throws on purpose, by a `code` of the catalogue (./catalogue),
 * which fixes its status and its words. `message` is the problem's `detail`, safe to show.
 */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  /** A catalogue code; a {@link AppError.foreign} failure's may be outside it. */
  readonly code: string;
  readonly errors: FieldIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly members: Record<string, string | number> | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.detail ?? errorDetail(code), { cause: options.cause });
    this.name = 'AppError';
    this.status = ERRORS[code].status;
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
    this.members = options.members;
  }

  /**
   * A failure this code did not throw, kept as it came: another module's answer (over HTTP or
   * RPC; a module deployed later may know codes this one does not) or the framework's own.
   */
  static foreign(
    status: ContentfulStatusCode,
    code: string,
    detail: string,
    options: Omit<AppErrorOptions, 'detail'> = {},
  ): AppError {
    const error = new AppError('internal_error', { ...options, detail });
    return Object.assign(error, { status, code });
  }
}

/** What a 404 says was not there; another user's row is "not there" too (row-level security). */
export type Missing =
  | 'user'
  | 'API key'
  | 'file'
  | 'collection'
  | 'member'
  | 'conversation'
  | 'message'
  | 'passage'
  | 'page'
  | 'retrieval test'
  | 're-index job'
  | 'official answer';

/** The one way to say that something is not there. */
export const notFound = (what: Missing) =>
  new AppError('not_found', { detail: `No such ${what}.` });
