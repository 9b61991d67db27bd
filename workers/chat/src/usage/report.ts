import { AppError } from '#shared/errors/app-error';
import { NO_COLLECTION, NO_ID } from '../db/schema';
import type { AmountsRow, LimitsRow } from '../store/usage';

/** The longest period a report covers (a year and a day): the rows are per day. */
export const MAX_PERIOD_DAYS = 367;
/** The default period: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The first day the database has (there is no year 0); a day string compares as its date. */
const FIRST_DAY = '0001-01-01';
const maxDay = (a: string, b: string) => (a < b ? b : a);
const beforeYearOne = (field: 'from' | 'to') =>
  new AppError('validation_failed', {
    detail: `${field}: before the year 1.`,
    errors: [{ field, message: 'before the year 1' }],
  });

/** `from`..`to` (UTC days, inclusive), defaulting to the 30 days up to today; 400 when backwards or too long. */
export function periodOf(
  params: { from?: string | undefined; to?: string | undefined },
  now: Date = new Date(),
): { from: string; to: string } {
  const to = params.to ?? dayOf(now);
  if (to < FIRST_DAY) throw beforeYearOne('to');
  if (params.from !== undefined && params.from < FIRST_DAY) throw beforeYearOne('from');
  const from =
    params.from ??
    maxDay(dayOf(new Date(Date.parse(to) - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS)), FIRST_DAY);
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw new AppError('validation_failed', { detail: 'from: after to.' });
  if (days > MAX_PERIOD_DAYS) {
    throw new AppError('validation_failed', {
      detail: `The period is longer than ${MAX_PERIOD_DAYS} days.`,
    });
  }
  return { from, to };
}

/** Every day of the period, oldest first. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY_MS) days.push(dayOf(new Date(t)));
  return days;
}

/** A row's sums as the API tells them (bigint columns come back as strings). */
export function amountsOf(row: AmountsRow | undefined) {
  const n = (v: number | string | undefined) => Number(v ?? 0);
  const embedding = n(row?.embedding_tokens);
  const prompt = n(row?.prompt_tokens);
  const completion = n(row?.completion_tokens);
  return {
    questions: n(row?.questions),
    embedding_tokens: embedding,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: embedding + prompt + completion,
  };
}

/** Each day of the period with its sums, a day without usage as zeros (a chart's bars). */
export function everyDay(
  from: string,
  to: string,
  rows: readonly (AmountsRow & { day: string })[],
) {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return daysOf(from, to).map((day) => ({ day, ...amountsOf(byDay.get(day)) }));
}

/** The period's totals, from its days. */
export function totalsOf(days: readonly ReturnType<typeof amountsOf>[]) {
  const total = amountsOf(undefined);
  for (const d of days) {
    total.questions += d.questions;
    total.embedding_tokens += d.embedding_tokens;
    total.prompt_tokens += d.prompt_tokens;
    total.completion_tokens += d.completion_tokens;
    total.total_tokens += d.total_tokens;
  }
  return total;
}

/** A usage row's key as the API tells it: null for NO_ID (a login token). */
export const keyOrNull = (id: string) => (id === NO_ID ? null : id);

/** A usage row's collection as the API tells it: null for NO_COLLECTION (none). */
export const collectionOrNull = (id: string) => (id === NO_COLLECTION ? null : id);

/** The limits row as the API tells them (null: no limit). */
export function limitsView(row: LimitsRow) {
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    user_daily_tokens: n(row.userDailyTokens),
    user_daily_questions: n(row.userDailyQuestions),
    collection_max_bytes: n(row.collectionMaxBytes),
    collection_max_files: n(row.collectionMaxFiles),
    user_max_bytes: n(row.userMaxBytes ?? null),
    audit_questions: row.auditQuestions,
    audit_retention_days: row.auditRetentionDays,
  };
}

export type LimitsView = ReturnType<typeof limitsView>;

/** The API's limits as the row stores them; `user_max_bytes` left out is left as it is. */
export const limitsRow = (
  view: Omit<LimitsView, 'user_max_bytes'> & { user_max_bytes?: number | null },
): LimitsRow => ({
  userDailyTokens: view.user_daily_tokens,
  userDailyQuestions: view.user_daily_questions,
  collectionMaxBytes: view.collection_max_bytes,
  collectionMaxFiles: view.collection_max_files,
  ...(view.user_max_bytes !== undefined ? { userMaxBytes: view.user_max_bytes } : {}),
  auditQuestions: view.audit_questions,
  auditRetentionDays: view.audit_retention_days,
});
