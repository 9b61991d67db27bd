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

/** Refuses with 429 and Retry-After while any key has used up its failures in the window. */
export async function assertNotThrottled(db: Db, keys: string[], limits: ThrottleLimits) {
  const { rows } = await db.execute<{ retry_after: number }>(sql`
    select ceil(extract(epoch from (window_start + make_interval(secs => ${limits.windowSeconds}) - now())))::int as retry_after
    from ${loginFailures}
    where ${inArray(loginFailures.key, keys)}
      and failures >= ${limits.maxFailures}
      and window_start > now() - make_interval(secs => ${limits.windowSeconds})
    order by retry_after desc
    limit 1`);
  const retryAfter = rows[0]?.retry_after;
  if (retryAfter !== undefined) {
    throw new AppError(429, 'too_many_attempts', 'Too many failed logins. Try again later.', {
      headers: { 'Retry-After': String(Math.max(1, retryAfter)) },
    });
  }
}

/** Counts one failure for each key, starting a new window when the old one has passed. */
export async function recordFailure(db: Db, keys: string[], limits: ThrottleLimits) {
  const window = sql`make_interval(secs => ${limits.windowSeconds})`;
  for (const key of keys) {
    await db.execute(sql`
      insert into ${loginFailures} (key, window_start, failures) values (${key}, now(), 1)
      on conflict (key) do update set
        failures = case when ${loginFailures.windowStart} <= now() - ${window} then 1
                        else ${loginFailures.failures} + 1 end,
        window_start = case when ${loginFailures.windowStart} <= now() - ${window} then now()
                            else ${loginFailures.windowStart} end`);
  }
}

export async function clearFailures(db: Db, key: string) {
  await db.delete(loginFailures).where(inArray(loginFailures.key, [key]));
}
