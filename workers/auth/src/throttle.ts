import { inArray, sql } from 'drizzle-orm';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';
import { AppError } from '../../../shared/errors/app-error';
import { loginFailures } from './db/schema';

export interface ThrottleLimits {
  maxFailures: number;
  windowSeconds: number;
}

type Db = NeonDatabase<Record<string, unknown>>;

/**
 * Failed logins are counted per username and per client address in the database, so the
 * limit holds across requests and isolates. Keys: `user:<lower-case name>`, `ip:<address>`.
 */
export function throttleKeys(username: string, clientAddress: string | undefined): string[] {
  const keys = [`user:${username.toLowerCase()}`];
  if (clientAddress) keys.push(`ip:${clientAddress}`);
  return keys;
}

/**
 * Counts this attempt for every key FIRST, in one statement, and refuses with 429 and
 * Retry-After when any key is over the limit. Counting before the password is checked means
 * parallel guesses cannot all pass a check that none of them has been counted in yet.
 * A successful login gives its attempt back (see `clearFailures` / `refundAttempt`).
 */
export async function takeAttempt(db: Db, keys: string[], limits: ThrottleLimits) {
  const window = sql`make_interval(secs => ${limits.windowSeconds})`;
  const { rows } = await db.execute<{ failures: number; retry_after: number }>(sql`
    insert into ${loginFailures} (key, window_start, failures)
    select k, now(), 1
    from unnest(array[${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]) as k
    on conflict (key) do update set
      failures = case when ${loginFailures.windowStart} <= now() - ${window} then 1
                      else ${loginFailures.failures} + 1 end,
      window_start = case when ${loginFailures.windowStart} <= now() - ${window} then now()
                          else ${loginFailures.windowStart} end
    returning failures,
      ceil(extract(epoch from (window_start + ${window} - now())))::int as retry_after`);
  const over = rows.filter((row) => row.failures > limits.maxFailures);
  if (over.length > 0) {
    const retryAfter = Math.max(1, ...over.map((row) => row.retry_after));
    throw new AppError(429, 'too_many_attempts', 'Too many failed logins. Try again later.', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/** Gives back the attempt a successful login took on keys that are not cleared. */
export async function refundAttempt(db: Db, keys: string[]) {
  if (keys.length === 0) return;
  await db.execute(sql`
    update ${loginFailures} set failures = greatest(${loginFailures.failures} - 1, 0)
    where ${inArray(loginFailures.key, keys)}`);
}

export async function clearFailures(db: Db, key: string) {
  await db.delete(loginFailures).where(inArray(loginFailures.key, [key]));
}
