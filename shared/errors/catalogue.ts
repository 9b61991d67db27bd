import type { Language } from '../i18n/language.ts';
import { accessErrors } from './catalogue/access.ts';
import { answerErrors, chatErrors, refusalErrors } from './catalogue/chat.ts';
import { collectionErrors } from './catalogue/collections.ts';
import { documentErrors } from './catalogue/documents.ts';
import type { ErrorEntry } from './catalogue/entry.ts';
import { requestErrors } from './catalogue/request.ts';
import { serviceErrors } from './catalogue/service.ts';

export type { ErrorEntry } from './catalogue/entry.ts';

/**
 * Every stable `code` the service answers with, once: its status, the wire's English detail
 * and the words for people in each language. Workers throw by code (AppError), the web app and
 * the chat stream show these words; a code outside this catalogue does not type-check.
 */
export const ERRORS = {
  ...requestErrors,
  ...accessErrors,
  ...collectionErrors,
  ...documentErrors,
  ...chatErrors,
  ...refusalErrors,
  ...answerErrors,
  ...serviceErrors,
} satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;
export type RefusalCode = keyof typeof refusalErrors;
/** The codes of the chat stream's `error` messages: refusals and broken-off answers. */
export type ChatErrorCode = RefusalCode | keyof typeof answerErrors;
export const REFUSAL_CODES = Object.keys(refusalErrors) as RefusalCode[];
export const CHAT_ERROR_CODES = [...REFUSAL_CODES, ...Object.keys(answerErrors)] as ChatErrorCode[];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERRORS, code);

/** The words for a person, in their language. */
export const errorText = (code: ErrorCode, language: Language): string => ERRORS[code][language];

/** What a problem's `detail` says when the thrower adds nothing more specific. */
export const errorDetail = (code: ErrorCode): string => {
  const entry: ErrorEntry = ERRORS[code];
  return entry.detail ?? entry.en;
};
