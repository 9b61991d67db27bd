import type { Language } from '#shared/i18n/language';

/**
 * One screen's strings in every language, side by side. English fixes the shape: Chinese must
 * have every key, and every function the same parameters, or the type check fails. Texts that
 * depend on a count or a name are functions; the Intl formatters in ./format.ts do numbers,
 * plurals, lists and dates.
 */
export function translations<T>(texts: { en: T; zh: NoInfer<T> }): Record<Language, T> {
  return texts;
}
