import type { Failure } from '../api/services';
import { t, type Localized } from './bind';
import type { Messages } from './messages';

type Described = Messages['errors'];
type Code = keyof Described;

const isKnown = (code: string, errors: Described): code is Code => Object.hasOwn(errors, code);

/**
 * A failed call in the reader's language, chosen by the problem's stable `code`; a code the
 * app does not know shows the service's own `detail`.
 */
export function failureText(failure: Failure, m: Messages): string {
  const { code } = failure;
  if (!isKnown(code, m.errors)) return failure.detail;
  const described = m.errors[code];
  return typeof described === 'function'
    ? described(failure.fields.map((issue) => issue.field))
    : described;
}

/**
 * A chat stream's error message in the reader's language, by its `code` (the service words it
 * in the question's language, which may not be the page's); without a known code, as sent.
 */
export function codedText(code: string | undefined, content: string): Localized {
  return t((m) => {
    if (code === undefined || !isKnown(code, m.errors)) return content;
    const described = m.errors[code];
    return typeof described === 'function' ? described([]) : described;
  });
}

/** {@link failureText}, following the language. */
export const failureMessage = (failure: Failure): Localized => t((m) => failureText(failure, m));
