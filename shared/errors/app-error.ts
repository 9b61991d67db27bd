import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** One field that failed validation, as reported to the client. */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * The one error type the service throws on purpose. `code` is stable and machine-readable;
 * `message` is safe to show to the client. `cause` is for the log only, never the wire.
 */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly errors: FieldIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    options: { cause?: unknown; errors?: FieldIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string, errors?: FieldIssue[]) =>
  new AppError(400, 'bad_request', message, { errors });

export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);

export const serviceUnavailable = (code: string, message: string, cause?: unknown) =>
  new AppError(503, code, message, { cause });

/** Codes of the refusals of a route that takes one kind of credential only (`@credential`). */
export const LOGIN_REQUIRED = 'login_required';
export const API_KEY_REQUIRED = 'api_key_required';

/**
 * An API key on a route that takes a login token only: administering identity (users, roles,
 * passwords, sessions, keys) needs someone who knows the password, never a long-lived key.
 */
export const loginRequired = () =>
  new AppError(
    403,
    LOGIN_REQUIRED,
    'An API key cannot do this: log in (POST /moduleauth/login) and use the login token.',
  );

/** A login token on a route that takes an API key only (the OpenAI-compatible routes). */
export const apiKeyRequired = () =>
  new AppError(
    403,
    API_KEY_REQUIRED,
    'This takes an API key (Authorization: Bearer kbc_…), not a login token: create one with POST /moduleauth/api_key.',
  );
