/** Dates as printed (2025年4月30日, 14 March 2025, April 1, 2025, 2025-04-30) → YYYY-MM-DD. */

const pad = (n: number) => String(n).padStart(2, '0');

/** A real calendar date as YYYY-MM-DD, or null (2025-02-30 is not one). */
export function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** A Chinese date in Arabic digits (normaliseText converted Chinese numerals): 2025年4月30日. */
export const CHINESE_DATE_SOURCE =
  '((?:19|20)\\d{2})\\s*年\\s*(\\d{1,2})\\s*月\\s*(\\d{1,2})\\s*日';

export function chineseDate(match: readonly (string | undefined)[], at = 1): string | null {
  return isoDate(Number(match[at]), Number(match[at + 1]), Number(match[at + 2]));
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH = `(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;

/** An English date anywhere in `text`'s start: 14 March 2025, March 14, 2025, 2025-03-14. */
export function englishDate(text: string): string | null {
  const trimmed = text.trim();
  let match = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\s+(\\d{4})\\b`, 'i').exec(
    trimmed,
  );
  if (match) return isoDate(Number(match[3]), monthNumber(match[2]!), Number(match[1]));
  match = new RegExp(`^${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i').exec(trimmed);
  if (match) return isoDate(Number(match[3]), monthNumber(match[1]!), Number(match[2]));
  match = /^(\d{4})-(\d{2})-(\d{2})\b/.exec(trimmed);
  if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]));
  return null;
}

function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  return MONTHS.findIndex((m) => m.startsWith(lower.slice(0, 3))) + 1;
}

/**
 * The last day of a validity of `years` years from `from` (有效期5年 from 2025-07-01 runs to
 * 2030-06-30): the day before the same date `years` later.
 */
export function lastDayAfterYears(from: string, years: number): string {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  const end = new Date(Date.UTC(y + years, m - 1, d));
  // 29 February plus whole years lands on 1 March in common years: one day back still holds.
  end.setUTCDate(end.getUTCDate() - 1);
  return end.toISOString().slice(0, 10);
}
