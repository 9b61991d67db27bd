import { sql } from 'drizzle-orm';
import { AppError } from '#shared/errors/app-error';
import { loginFailures } from '../db/schema';
import type { Device } from '../identity/device-token';
import type { AuthDb } from './users';

/** The login policy's figures (README, "Sessions, throttling and sizes"). */
export interface LoginLimits {
  windowSeconds: number;
  /** Failures of one username from one address in a window. */
  pairLimit: number;
  /** Failures from one address in a window, whatever the username (spraying). */
  addressLimit: number;
  /** Failures of one username after which unfamiliar addresses are slowed down. */
  backoffAfter: number;
}

/**
 * Counts a login attempt (or a password change's check of the old password) BEFORE the
 * password is checked, as a statement to run in the same batch as the user lookup. Its result
 * is how many seconds the client must wait: see {@link refuseIfThrottled}. An attempt with a
 * device cookie that still counts is judged by that device's failures alone (pairLimit of
 * them); any other by the address and username limits (migrations 0005 and 0019).
 */
export function loginAttempt(
  adb: AuthDb,
  username: string,
  address: string,
  limits: LoginLimits,
  device?: Device,
) {
  return adb.db.execute<{ retry_after: number }>(sql`
    select kbchat_login_attempt(${username.normalize('NFKC')}, ${address}, ${limits.windowSeconds}::int,
      ${limits.pairLimit}::int, ${limits.addressLimit}::int, ${limits.backoffAfter}::int,
      ${device?.id ?? null}::text, ${device?.userId ?? null}::uuid, ${device?.epoch ?? null}::int
    ) as retry_after`);
}

export function refuseIfThrottled(result: { rows: { retry_after: number }[] }): void {
  const retryAfter = Number(result.rows[0]?.retry_after ?? 0);
  if (retryAfter > 0) {
    throw new AppError('too_many_attempts', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/**
 * A correct password: the attempt is given back where it was counted (to `deviceId`, the
 * device it was judged by, if any), and the address becomes familiar.
 */
export function loginSucceeded(
  adb: AuthDb,
  username: string,
  address: string,
  userId: string,
  deviceId?: string,
) {
  return adb.db.execute(sql`select kbchat_login_succeeded(${username.normalize('NFKC')}, ${address},
    ${userId}::uuid, ${deviceId ?? null}::text)`);
}

/**
 * Whether a refused sign-in is still recorded in the audit trail (the condition of its record).
 * The throttle counts every attempt of an address in its window (of a device, when the attempt
 * is judged by the device's cookie), refused or not; the trail keeps the refusals up to one past
 * the count where refusing begins — every 401 the throttle let through and the first 429 — and
 * none after that in the window. So one address cannot make the trail, and the one lock every
 * append takes, grow faster than the throttle lets it try passwords.
 */
export function refusalRecordable(address: string, limits: LoginLimits, judgedByDevice?: string) {
  const [key, bound] = judgedByDevice
    ? [`device:${judgedByDevice}`, limits.pairLimit + 1]
    : [`address:${address}`, limits.addressLimit + 1];
  return sql`coalesce((select ${loginFailures.failures} from ${loginFailures}
    where ${loginFailures.key} = ${key}
      and ${loginFailures.windowStart} > now() - make_interval(secs => ${limits.windowSeconds}::int)
  ), 0) <= ${bound}::int`;
}
