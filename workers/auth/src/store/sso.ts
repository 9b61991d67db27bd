import { and, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEvent } from '#shared/audit/record';
import { recorded } from './audit';
import { sqlStateOf } from '#shared/db/sql-state';
import { AppError } from '#shared/errors/app-error';
import { oidcLogins, users } from '../db/schema';
import { superAdminCheck, superAdminLock, type AuthDb } from './users';

/** How long a sign-in may take between the redirect to the provider and its return. */
export const ATTEMPT_LIFETIME_SECONDS = 600;

const stale = () =>
  lt(oidcLogins.createdAt, sql`now() - make_interval(secs => ${ATTEMPT_LIFETIME_SECONDS})`);

/**
 * Keeps a new attempt (answering its state; none when too many are under way), and drops those
 * that can no longer complete (abandoned sign-ins). Starting a sign-in needs no account, so
 * without bounds anyone could fill the table within an attempt's lifetime: at most `perAddress`
 * under way from one client address (OIDC_MAX_PENDING_PER_ADDRESS), so that one address cannot
 * take the whole of `total` (OIDC_MAX_PENDING); past either a start is refused (sso_busy) until
 * abandoned attempts expire or complete.
 */
export const savingAttempt = (
  adb: AuthDb,
  attempt: {
    state: string;
    nonce: string;
    codeVerifier: string;
    returnTo: string | null;
    browserHash: string;
    address: string;
  },
  bounds: { total: number; perAddress: number },
) =>
  [
    adb.db.delete(oidcLogins).where(stale()),
    adb.db.execute<{ state: string }>(sql`
      insert into oidc_logins (state, nonce, code_verifier, return_to, browser_hash, address)
      select ${attempt.state}, ${attempt.nonce}, ${attempt.codeVerifier}, ${attempt.returnTo},
        ${attempt.browserHash}, ${attempt.address}
      where (select count(*) from oidc_logins) < ${bounds.total}
        and (select count(*) from oidc_logins where address = ${attempt.address}) < ${bounds.perAddress}
      returning state`),
  ] as const;

/**
 * Takes the attempt a callback names, only together with the browser that started it (one of
 * `browserHashes`, the hashes of the attempt cookies it sent): deleted as it is read, in one
 * statement, so that a state completes at most once however many callbacks carry it, and a
 * callback from another browser leaves it where it was. Answers whether it was still fresh.
 */
export async function takeAttempt(adb: AuthDb, state: string, browserHashes: string[]) {
  const [row] = await adb.run(
    adb.db
      .delete(oidcLogins)
      .where(and(eq(oidcLogins.state, state), inArray(oidcLogins.browserHash, browserHashes)))
      .returning({
        state: oidcLogins.state,
        nonce: oidcLogins.nonce,
        codeVerifier: oidcLogins.codeVerifier,
        returnTo: oidcLogins.returnTo,
        fresh: sql<boolean>`${oidcLogins.createdAt} > now() - make_interval(secs => ${ATTEMPT_LIFETIME_SECONDS})`,
      }),
  );
  return row;
}

/** The user linked to an account at a provider, and the local user a verified email names. */
export const userBySubject = (adb: AuthDb, issuer: string, subject: string) =>
  adb.db
    .select()
    .from(users)
    .where(and(eq(users.oidcIssuer, issuer), eq(users.oidcSubject, subject)))
    .limit(1);

/** Names among `candidates` (and `<first>-<n>`) that are taken, lower-cased. */
export async function takenNames(adb: AuthDb, candidates: readonly string[]): Promise<Set<string>> {
  const lowered = candidates.map((name) => name.toLowerCase());
  const base = (lowered[0] ?? 'user').replace(/[\\%_]/g, (char) => `\\${char}`);
  const rows = await adb.run(
    adb.db
      .select({ name: sql<string>`lower(${users.username})` })
      .from(users)
      .where(
        sql`lower(${users.username}) = any(${sql.param(lowered)}::text[]) or lower(${users.username}) like ${`${base}-%`}`,
      ),
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * Records a refused or failed sign-in on its own (nothing else is written). A callback that
 * named no sign-in of its browser (`unknownState`) is recorded only when its state is one under
 * way in another browser (a callback URL carried off: login CSRF, a leaked link), never for a
 * state nobody started: anyone can send those, as many as they like.
 */
export async function recordRefusal(
  adb: AuthDb,
  event: AuditEvent,
  unknownState?: string,
): Promise<void> {
  if (unknownState === undefined) {
    await adb.run(recorded(adb, event));
    return;
  }
  if (!unknownState) return;
  await adb.run(
    recorded(adb, {
      ...event,
      when: sql`exists (select 1 from ${oidcLogins} where ${oidcLogins.state} = ${unknownState})`,
    }),
  );
}

/** A role the provider's claim sets: a change moves the session epoch on, as PutUserRole does. */
function roleChange(superAdmin: boolean | undefined): Record<string, SQL | boolean> {
  if (superAdmin === undefined) return {};
  return {
    isSuperAdmin: superAdmin,
    sessionEpoch: sql`case when ${users.isSuperAdmin} <> ${superAdmin} then ${users.sessionEpoch} + 1 else ${users.sessionEpoch} end`,
  };
}

/**
 * A known user signs in again (found by issuer and subject), or a local user is linked by
 * their verified email: the role from the claim, the link, and the audit record in one batch.
 * The record is written only when the change was (the user still enabled and, for a link,
 * still unlinked). Answers the user as they are now, or undefined when that changed meanwhile.
 * A claim that would demote the last active super admin changes nothing: the same [lock,
 * change, check] as PutUserRole rolls the batch back, answered as sso_last_super_admin.
 */
export async function signInExisting(
  adb: AuthDb,
  userId: string,
  change: { link?: { issuer: string; subject: string }; superAdmin: boolean | undefined },
  event: AuditEvent,
) {
  const { link, superAdmin } = change;
  const update = adb.db
    .update(users)
    .set({
      ...roleChange(superAdmin),
      ...(link ? { oidcIssuer: link.issuer, oidcSubject: link.subject } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(users.id, userId),
        eq(users.disabled, false),
        ...(link ? [isNull(users.oidcSubject)] : []),
      ),
    )
    .returning();
  const done = link
    ? sql`exists (select 1 from users where id = ${userId}::uuid and not disabled and oidc_subject = ${link.subject})`
    : sql`exists (select 1 from users where id = ${userId}::uuid and not disabled)`;
  const record = recorded(adb, { ...event, when: done });
  if (superAdmin === false) {
    try {
      const [, [user]] = await adb.batch([
        superAdminLock(adb),
        update,
        superAdminCheck(adb),
        record,
      ]);
      return user;
    } catch (err) {
      if (sqlStateOf(err) === 'KBA01') throw new AppError('sso_last_super_admin', { cause: err });
      throw err;
    }
  }
  const [[user]] = await adb.batch([update, record]);
  return user;
}

/**
 * Creates the user a first sign-in brings, linked to the provider's account, with the record
 * (written only when the user was: a name or account taken meanwhile writes neither).
 */
export async function createSsoUser(
  adb: AuthDb,
  values: { id: string; username: string; issuer: string; subject: string; superAdmin: boolean },
  event: AuditEvent,
) {
  const [[user]] = await adb.batch([
    adb.db
      .insert(users)
      .values({
        id: values.id,
        username: values.username,
        // No password: nothing verifies against an empty hash (identity/password.ts).
        passwordHash: '',
        isSuperAdmin: values.superAdmin,
        oidcIssuer: values.issuer,
        oidcSubject: values.subject,
      })
      .onConflictDoNothing()
      .returning(),
    recorded(adb, {
      ...event,
      when: sql`exists (select 1 from users where id = ${values.id}::uuid)`,
    }),
  ]);
  return user;
}
