import { sqlStateOf } from '#shared/db/sql-state';
import { AppError } from '#shared/errors/app-error';
import { errorText } from '#shared/errors/catalogue';
import type { Language } from '../answer/language';

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
  const { limit, used, allowed } = limitOf(err);
  const resets = nextUtcMidnight(now);
  return new AppError('quota_exceeded', {
    detail: errorText('quota_exceeded', language),
    headers: { 'Retry-After': String(Math.ceil((resets.getTime() - now.getTime()) / 1000)) },
    members: {
      resets_at: resets.toISOString(),
      ...(limit ? { limit } : {}),
      ...(used !== undefined ? { used } : {}),
      ...(allowed !== undefined ? { allowed } : {}),
    },
    cause: err,
  });
}

const LIMITS = new Set(['user_daily_questions', 'user_daily_tokens']);

/** The limit named by the function's MESSAGE, and its DETAIL "<used> <limit>". */
function limitOf(err: unknown): { limit?: string; used?: number; allowed?: number } {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const { message, detail } = e as { message?: unknown; detail?: unknown };
    const name = typeof message === 'string' ? message.trim() : '';
    if (LIMITS.has(name)) {
      const [used, allowed] = typeof detail === 'string' ? detail.split(' ').map(Number) : [];
      return {
        limit: name,
        ...(Number.isFinite(used) ? { used } : {}),
        ...(Number.isFinite(allowed) ? { allowed } : {}),
      };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return {};
}
