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
