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

/** What else of the service's settings decides how a sign-in is matched. */
export interface SignInPolicy {
  /** Anyone may make an account here with a name of their choosing (ALLOW_SIGNUP, passwords on). */
  signupOpen: boolean;
}

/**
 * The local user for a verified ID token: the one linked to the provider's account; else (when
 * OIDC_MATCH_EMAIL is on and sign-up is closed) the local user whose username is the verified
 * email, linked now; else a new user (when OIDC_CREATE_USERS is on). A disabled user is
 * refused, and so is a role claim that would demote the last super admin. The role follows the
 * role claim when one is configured. Each success is recorded in the batch that makes it.
 */
export async function signInUser(
  adb: AuthDb,
  sso: SsoSettings,
  claims: IdClaims,
  address: string,
  policy: SignInPolicy,
): Promise<User> {
  const identity = identityOf(claims, sso);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const user = await signInOnce(adb, sso, identity, address, policy);
    if (user) return user;
  }
  throw new AppError('sso_unavailable', { detail: 'The account changed during sign-in.' });
}

async function signInOnce(
  adb: AuthDb,
  sso: SsoSettings,
  identity: SsoIdentity,
  address: string,
  policy: SignInPolicy,
): Promise<User | undefined> {
  const { issuer, subject, superAdmin } = identity;
  const [linked] = await adb.run(userBySubject(adb, issuer, subject));
  if (linked) {
    if (linked.disabled) await refuse(adb, 'sso_account_disabled', identity, address, linked);
    return signInKnown(adb, linked, identity, address, { superAdmin }, 'signed in');
  }
  // A username equal to an email proves who owns the account only when an administrator chose
  // it: with sign-up open anyone could have registered the address first (with a password of
  // their own) and would then share the account of the person it belongs to. The users table
  // does not record who chose a name, so no account is linked by email while sign-up is open.
  if (sso.matchEmail && !policy.signupOpen && identity.verifiedEmail) {
    const [local] = await adb.run(userByName(adb, identity.verifiedEmail));
    if (local && local.oidcSubject === null) {
      if (local.disabled) await refuse(adb, 'sso_account_disabled', identity, address, local);
      return signInKnown(
        adb,
        local,
        identity,
        address,
        { link: { issuer, subject }, superAdmin },
        'linked by verified email',
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

/** signInExisting, with a role claim that the last super admin's guard refused recorded as such. */
async function signInKnown(
  adb: AuthDb,
  user: User,
  identity: SsoIdentity,
  address: string,
  change: Parameters<typeof signInExisting>[2],
  how: string,
): Promise<User | undefined> {
  try {
    return await signInExisting(adb, user.id, change, success(user, identity, address, how));
  } catch (err) {
    if (err instanceof AppError && err.code === 'sso_last_super_admin') {
      await refuse(adb, 'sso_last_super_admin', identity, address, user);
    }
    throw err;
  }
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
  code: 'sso_account_disabled' | 'sso_no_account' | 'sso_last_super_admin',
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
