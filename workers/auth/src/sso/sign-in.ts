import type { AuditEvent } from '#shared/audit/record';
import { AppError } from '#shared/errors/app-error';
import type { SsoSettings } from '../config';
import type { User } from '../db/schema';
import {
  createSsoUser,
  recordRefusal,
  signInExisting,
  takenNames,
  userBySubject,
} from '../store/sso';
import { userByName, type AuthDb } from '../store/users';
import { freeUsername, identityOf, type SsoIdentity } from './identity';
import type { IdClaims } from './provider';

/** A refusal of the person who signed in, already in the audit trail with their name. */
export class RecordedRefusal extends AppError {}

// Two sign-ins of one new person at once, or a name taken meanwhile: look again, a few times.
const ATTEMPTS = 3;

/**
 * The local user for a verified ID token: the one linked to the provider's account; else (when
 * OIDC_MATCH_EMAIL is on) the local user whose username is the verified email, linked now;
 * else a new user (when OIDC_CREATE_USERS is on). A disabled user is refused. The role follows
 * the role claim when one is configured. Each success is recorded in the batch that makes it.
 */
export async function signInUser(
  adb: AuthDb,
  sso: SsoSettings,
  claims: IdClaims,
  address: string,
): Promise<User> {
  const identity = identityOf(claims, sso);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const user = await signInOnce(adb, sso, identity, address);
    if (user) return user;
  }
  throw new AppError('sso_unavailable', { detail: 'The account changed during sign-in.' });
}

async function signInOnce(
  adb: AuthDb,
  sso: SsoSettings,
  identity: SsoIdentity,
  address: string,
): Promise<User | undefined> {
  const { issuer, subject, superAdmin } = identity;
  const [linked] = await adb.run(userBySubject(adb, issuer, subject));
  if (linked) {
    if (linked.disabled) await refuse(adb, 'sso_account_disabled', identity, address, linked);
    return signInExisting(
      adb,
      linked.id,
      { superAdmin },
      success(linked, identity, address, 'signed in'),
    );
  }
  if (sso.matchEmail && identity.verifiedEmail) {
    const [local] = await adb.run(userByName(adb, identity.verifiedEmail));
    if (local && local.oidcSubject === null) {
      if (local.disabled) await refuse(adb, 'sso_account_disabled', identity, address, local);
      return signInExisting(
        adb,
        local.id,
        { link: { issuer, subject }, superAdmin },
        success(local, identity, address, 'linked by verified email'),
      );
    }
  }
  if (!sso.createUsers) await refuse(adb, 'sso_no_account', identity, address);
  const username = freeUsername(identity.usernames, await takenNames(adb, identity.usernames));
  const id = crypto.randomUUID();
  return createSsoUser(
    adb,
    { id, username, issuer, subject, superAdmin: superAdmin ?? false },
    success({ id, username }, identity, address, 'created'),
  );
}

function success(
  user: { id: string; username: string },
  identity: SsoIdentity,
  address: string,
  how: string,
): AuditEvent {
  return {
    action: 'auth.sso_login',
    actor: { id: user.id, name: user.username, address },
    object: { type: 'user', id: user.id, label: user.username },
    detail: { how, issuer: identity.issuer, subject: identity.subject },
  };
}

async function refuse(
  adb: AuthDb,
  code: 'sso_account_disabled' | 'sso_no_account',
  identity: SsoIdentity,
  address: string,
  user?: User,
): Promise<never> {
  await recordRefusal(adb, {
    action: 'auth.sso_login',
    outcome: 'denied',
    actor: { id: user?.id ?? null, name: user?.username ?? identity.usernames[0] ?? null, address },
    ...(user ? { object: { type: 'user', id: user.id, label: user.username } } : {}),
    detail: { reason: code, issuer: identity.issuer, subject: identity.subject },
  });
  throw new RecordedRefusal(code);
}
