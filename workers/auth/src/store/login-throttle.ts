import { sql } from 'drizzle-orm';
import { AppError } from '#shared/errors/app-error';
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
