import type { z } from 'zod';

/**
 * A method that answers the HTTP request itself: a protocol with framing of its own, whose
 * library builds the web `Response` (the Model Context Protocol's Streamable HTTP transport
 * answers JSON-RPC documents, event streams, 202 and its own 4xx). The route still runs the
 * module's steps before it (body limit, authorize with its `@role` and `@credential`, session
 * settled after it); the implementation returns the `Response`, passed on as it is. Never RPC.
 */
export interface WebResponseSpec {
  readonly kind: 'webResponse';
  /**
   * Every status the implementation answers, for the OpenAPI document (the route's steps add
   * their own refusals, as on any route).
   */
  readonly answers: Readonly<Record<string, WebAnswer>>;
}

/** One status of a {@link WebResponseSpec}. */
export interface WebAnswer {
  readonly description: string;
  /** The media types of its body; none: it has no body (a 202). */
  readonly contentTypes?: readonly string[];
  /** The body's shape, when it is JSON the document can describe. */
  readonly schema?: z.ZodType;
  /** Headers it carries, each with its value's schema. */
  readonly headers?: Readonly<Record<string, z.ZodType>>;
}

const STATUS = /^[1-5][0-9][0-9]$/;

export function webResponse(answers: Readonly<Record<number, WebAnswer>>): WebResponseSpec {
  const statuses = Object.keys(answers);
  if (statuses.length === 0) throw new Error('webResponse: list the statuses it answers');
  for (const status of statuses) {
    if (!STATUS.test(status)) throw new Error(`webResponse: ${status} is not an HTTP status`);
    const answer = answers[Number(status)]!;
    if (answer.schema && !answer.contentTypes?.length) {
      throw new Error(`webResponse: the ${status} has a schema but no content type`);
    }
  }
  return { kind: 'webResponse', answers };
}

export function isWebResponseSpec(value: unknown): value is WebResponseSpec {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'webResponse'
  );
}
