/**
 * The times of a conversation's record, in the reader's time zone when the request names one
 * (the web app sends its browser's), always with the zone stated: a record is kept, printed and
 * read elsewhere, and a time without its zone is a guess.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * `2026-11-26 06:44:07 UTC` without a zone (or in UTC); in one, the time there with that
 * moment's offset (summer time moves it): `2026-11-26 14:44:07 UTC+08:00`.
 */
export function recordTime(at: Date, timeZone?: string): string {
  if (!timeZone || timeZone === 'UTC') {
    return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  }
  const parts = formatterFor(timeZone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  // ICU names a zero offset `GMT`, any other `GMT+08:00`.
  const name = part('timeZoneName');
  const offset = name === 'GMT' ? 'UTC+00:00' : name.replace(/^GMT/, 'UTC');
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} ${offset}`;
}
