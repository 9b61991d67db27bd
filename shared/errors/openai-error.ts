import type { FieldIssue } from './app-error';

/**
 * OpenAI's error object. Its SDKs read a failure only from `{"error": {…}}`: without it the
 * openai client's APIError says "400 status code (no body)" and has no `code`. Routes of an
 * OpenAI-compatible protocol carry it in their problem documents (an RFC 9457 extension
 * member) and as a broken stream's last line.
 */
export interface OpenAiError {
  message: string;
  type: string;
  /** The first invalid field, as OpenAI names the parameter at fault. */
  param: string | null;
  code: string;
}

export function openAiError(
  status: number,
  code: string,
  message: string,
  issues?: readonly FieldIssue[],
): OpenAiError {
  return { message, type: errorType(status), param: issues?.[0]?.field ?? null, code };
}

/** OpenAI's own types: every refusal of the request is an `invalid_request_error`. */
function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'service_unavailable';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
