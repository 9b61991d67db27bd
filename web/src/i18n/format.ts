import { LANGUAGE_TAG, type Language } from '#shared/i18n/language';
import { currentLocale } from './locale';

/**
 * Intl formatters are costly to make: one of each per language and options, made for the
 * language's full tag (Simplified Chinese as written in China).
 */
function cached<F>(make: (tag: string) => F): () => F {
  const made = new Map<Language, F>();
  return () => {
    const language = currentLocale();
    let formatter = made.get(language);
    if (!formatter) made.set(language, (formatter = make(LANGUAGE_TAG[language])));
    return formatter;
  };
}

const dateTime = cached(
  (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
);
const integer = cached((locale) => new Intl.NumberFormat(locale));
const oneDecimal = cached(
  (locale) => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
);
const twoDecimals = cached(
  (locale) => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
);
const percent = cached((locale) => new Intl.NumberFormat(locale, { style: 'percent' }));
const plurals = cached((locale) => new Intl.PluralRules(locale));
const conjunction = cached((locale) => new Intl.ListFormat(locale, { type: 'conjunction' }));

/** An ISO date as the reader's language writes it; the input itself when it is not a date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime().format(date);
}

/**
 * The reader's time zone as their browser names it (IANA, `Asia/Shanghai`), for what the service
 * writes with times for them to keep (a conversation's record); undefined when it names none.
 */
export function readerTimeZone(): string | undefined {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

const calendarDate = cached(
  (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
);

/**
 * A calendar date (`2024-02-06`: a document's date of issue, a filter's bound) as the reader's
 * language writes it (2024年2月6日, February 6, 2024), the same day in every time zone; the
 * input itself when it is not a date.
 */
export function formatCalendarDate(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? iso : calendarDate().format(date);
}

export const formatInteger = (value: number) => integer().format(value);
export const formatDecimal2 = (value: number) => twoDecimals().format(value);
export const formatPercent = (fraction: number) => percent().format(fraction);

/** Sizes in B, KB and MB (1024-based), the units both languages use in file lists. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${integer().format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${oneDecimal().format(bytes / 1024)} KB`;
  return `${oneDecimal().format(bytes / (1024 * 1024))} MB`;
}

/** "1 page", "3 pages": the word by the language's plural rules, the number formatted. */
export function countOf(
  count: number,
  forms: Partial<Record<Intl.LDMLPluralRule, string>> & {
    other: string;
  },
): string {
  const form = forms[plurals().select(count)] ?? forms.other;
  return form.replace('#', integer().format(count));
}

/** "a, b and c" / "a、b和c". */
export const formatList = (items: readonly string[]) => conjunction().format(items);
