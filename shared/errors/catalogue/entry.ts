import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Language } from '../../i18n/language.ts';

/**
 * One way a request can fail: its HTTP status and the words for the person it happened to, in
 * every language (the web app and the chat stream show these). `detail` is the English text on
 * the wire (a problem's `detail`) when it must say something else, such as an API route to
 * call or a text fixed by the original's protocol; without it the wire says `en`.
 */
export type ErrorEntry = { status: ContentfulStatusCode; detail?: string } & Record<
  Language,
  string
>;

/** Checks a group of entries against {@link ErrorEntry} and keeps its literal keys. */
export const errorGroup = <const T extends Record<string, ErrorEntry>>(entries: T): T => entries;
