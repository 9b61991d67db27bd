import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { Language } from '../../i18n/language.ts';

/**
 * One way a request can fail: its HTTP status and the words for the person it happened to, in
 * every language (the web app and the chat stream show these). `detail` is the English text on
 * the wire (a problem's `detail`) when it must say something else, such as an API route to
 * call or a text fixed by the original's protocol; without it the wire says `en`.
 */
export type ErrorEntry = {
  status: ContentfulStatusCode;
  detail?: string;
  /**
   * The members its problem document carries besides the problem's own (AppError's `members`),
   * for the OpenAPI documents of the routes that declare the code (MethodSpec `errors`).
   */
  members?: z.ZodObject;
  /** The headers its answer carries (AppError's `headers`), each with its value's schema. */
  headers?: Readonly<Record<string, z.ZodType>>;
  /**
   * It answers a request body over its route's limit (shared/service/body-limit.ts): a route
   * that takes a body and declares no such code is documented as answering `body_too_large`.
   */
  overLimitBody?: true;
  /**
   * A failure of the document itself (a file's `error_code`): the same bytes fail the same way,
   * so retrying the file cannot help (the web app offers no Retry).
   */
  documentFault?: true;
} & Record<Language, string>;

/** Checks a group of entries against {@link ErrorEntry} and keeps its literal keys. */
export const errorGroup = <const T extends Record<string, ErrorEntry>>(entries: T): T => entries;
