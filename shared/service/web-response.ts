/**
 * A method that answers the HTTP request itself: a protocol with framing of its own, whose
 * library builds the web `Response` (the Model Context Protocol's Streamable HTTP transport
 * answers JSON-RPC documents, event streams, 202 and its own 4xx). The route still runs the
 * module's steps before it (body limit, authorize with its `@role` and `@credential`, session
 * settled after it); the implementation returns the `Response`, passed on as it is. Never RPC.
 */
export interface WebResponseSpec {
  readonly kind: 'webResponse';
  /** Media types the answers may have, for the OpenAPI document. */
  readonly contentTypes: readonly string[];
  /** What the answers are, for the OpenAPI document. */
  readonly description: string;
}

export function webResponse(options: {
  contentTypes: readonly string[];
  description: string;
}): WebResponseSpec {
  if (options.contentTypes.length === 0) throw new Error('webResponse: list a content type');
  return { kind: 'webResponse', ...options };
}

export function isWebResponseSpec(value: unknown): value is WebResponseSpec {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'webResponse'
  );
}
