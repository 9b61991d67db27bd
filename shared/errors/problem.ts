import type { Context } from 'hono';
import type { AppError, FieldIssue } from './app-error';
import { openAiError, type OpenAiError } from './openai-error';

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * The protocol whose error object the route's problems also carry (its SDKs read no
     * other), set by mountService from the method's `errorProtocol`.
     */
    errorProtocol: 'openai' | undefined;
  }
}

/**
 * The single JSON error shape of every worker: RFC 9457 problem details, plus a stable
 * `code` and the `request_id` that ties the answer to its log lines.
 */
export interface Problem {
  type: 'about:blank';
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id?: string;
  errors?: FieldIssue[];
  /** On routes of OpenAI's protocol: the same failure as its SDKs read it. */
  error?: OpenAiError;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The one problem response of an error; `headers` add to the error's own. */
export function problemResponse(
  c: Context,
  error: AppError,
  headers: Record<string, string> = {},
): Response {
  const { status, code, message: detail, errors } = error;
  const body: Problem = {
    // Members of the error's own (resets_at…) first: the problem's fields cannot be overridden.
    ...error.members,
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    request_id: c.get('requestId'),
    ...(errors ? { errors } : {}),
    ...(c.get('errorProtocol') === 'openai'
      ? { error: openAiError(status, code, detail, errors) }
      : {}),
  };
  return c.body(JSON.stringify(body), status, {
    'Content-Type': 'application/problem+json',
    ...error.headers,
    ...headers,
  });
}
