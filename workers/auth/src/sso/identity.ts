import { hasInvisible, singleScript } from '#shared/contracts/username';
import type { SsoSettings } from '../config';
import type { IdClaims } from './provider';

/** Who the provider says signed in, as the user matching needs it. */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  /** The email, only when the provider says it is verified. */
  verifiedEmail: string | undefined;
  /** Usernames to try for a new user, best first (each valid as a username). */
  usernames: string[];
  /** SUPER_ADMIN or not by the role claim; undefined when no role claim is configured. */
  superAdmin: boolean | undefined;
}

const MIN_NAME = 3;
const MAX_NAME = 50;

export function identityOf(claims: IdClaims, settings: SsoSettings): SsoIdentity {
  const email =
    typeof claims.email === 'string' && claims.email_verified === true
      ? claims.email.normalize('NFKC').trim()
      : undefined;
  const candidates = [claims.preferred_username, claims.email, claims.sub]
    .filter((value): value is string => typeof value === 'string')
    .map(usableName)
    .filter((name): name is string => name !== undefined);
  return {
    issuer: claims.iss,
    subject: claims.sub,
    verifiedEmail: email || undefined,
    usernames: [...new Set(candidates)],
    superAdmin: settings.adminClaim ? claimHolds(claims, settings.adminClaim) : undefined,
  };
}

/** A claim's value as a username, or undefined when it cannot be one. */
function usableName(value: string): string | undefined {
  const name = value.normalize('NFKC').trim().slice(0, MAX_NAME).trim();
  if (name.length < MIN_NAME || hasInvisible(name) || !singleScript(name)) return undefined;
  return name;
}

/**
 * The role claim holds the value: equal to it, or (a list, as groups and roles usually are)
 * containing it. A dotted claim name reaches into objects (`realm_access.roles`, Keycloak).
 */
export function claimHolds(
  claims: Record<string, unknown>,
  rule: { claim: string; value: string },
): boolean {
  let value: unknown = claims;
  for (const part of rule.claim.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    value = (value as Record<string, unknown>)[part];
  }
  if (Array.isArray(value)) return value.some((item) => item === rule.value);
  return value === rule.value;
}

/**
 * The name for a new user: the first candidate nobody has, else the first with a number
 * after it (`wang-2`), kept within the username's length. `taken` holds the names in use,
 * lower-cased (usernames are compared without regard to case).
 */
export function freeUsername(candidates: readonly string[], taken: ReadonlySet<string>): string {
  const free = candidates.find((name) => !taken.has(name.toLowerCase()));
  if (free) return free;
  const base = candidates[0] ?? 'user';
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const name = base.slice(0, MAX_NAME - suffix.length) + suffix;
    if (!taken.has(name.toLowerCase())) return name;
  }
}
