import { raisedLimit, sqlStateOf } from '../db/sql-state';
import { AppError } from '../errors/app-error';
import { errorText } from '../errors/catalogue';
import type { Language } from '../i18n/language';

/** SQLSTATE raised by kbchat_quota (migration 0027) when a daily limit is reached. */
export const QUOTA_REACHED = 'KBQ01';

/** The next midnight UTC after `now`: when the daily limits reset. */
export function nextUtcMidnight(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * kbchat_quota's refusal as the 429 a client reads: the words in the asker's language, when
 * the limit resets (`resets_at`, and `Retry-After` in seconds), which limit and how far it is
 * used. Any other error is returned as it was.
 */
export function quotaRefusal(err: unknown, language: Language, now: Date = new Date()): unknown {
  if (sqlStateOf(err) !== QUOTA_REACHED) return err;
  const resets = nextUtcMidnight(now);
  return new AppError('quota_exceeded', {
    detail: errorText('quota_exceeded', language),
    headers: { 'Retry-After': String(Math.ceil((resets.getTime() - now.getTime()) / 1000)) },
    members: { resets_at: resets.toISOString(), ...raisedLimit(err, DAILY_LIMITS) },
    cause: err,
  });
}

/** The limits kbchat_quota names in its MESSAGE. */
const DAILY_LIMITS = ['user_daily_questions', 'user_daily_tokens'];
