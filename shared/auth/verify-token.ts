import { errors, jwtVerify, type JWTPayload } from 'jose';
import { ROLES, type Principal, type Role } from './roles';
import { TOKEN_ALGORITHM, type VerificationKey } from './keys';
import type { SessionClaim } from './session';

export interface TokenPolicy {
  issuer: string;
  audience: string;
  keys: VerificationKey[];
  /** The longest lifetime auth gives a token; a token that claims more is forged. */
  maxLifetimeSeconds: number;
}

/** Why a token was refused: for logs and tests only; the wire always says `Unauthorised`. */
export type TokenFailure =
  | 'missing'
  | 'malformed'
  | 'unknown_key'
  | 'bad_signature'
  | 'expired'
  | 'not_yet_valid'
  | 'bad_claims';

export type TokenCheck =
  { ok: true; principal: Principal; claim: SessionClaim } | { ok: false; reason: TokenFailure };

// Allowed clock difference between the signer and the verifiers.
const CLOCK_TOLERANCE_SECONDS = 60;

/** Verifies signature, algorithm, expiry, not-before, issuer and audience, then the claims. */
export async function verifyToken(token: string, policy: TokenPolicy): Promise<TokenCheck> {
  if (!token) return { ok: false, reason: 'missing' };
  try {
    const { payload } = await jwtVerify(
      token,
      (header) => {
        const match = policy.keys.find((k) => k.kid === header.kid);
        if (!match) throw new UnknownKey();
        return match.key;
      },
      {
        algorithms: [TOKEN_ALGORITHM],
        issuer: policy.issuer,
        audience: policy.audience,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat'],
      },
    );
    if (!plausibleTimes(payload, policy.maxLifetimeSeconds))
      return { ok: false, reason: 'bad_claims' };
    const principal = principalOf(payload);
    const epoch = (payload as { epoch?: unknown }).epoch;
    if (!principal || !Number.isSafeInteger(epoch) || (epoch as number) < 0) {
      return { ok: false, reason: 'bad_claims' };
    }
    // The session a logout can end: a UUID when there (the database compares it as one).
    const { jti } = payload;
    if (jti !== undefined && !UUID.test(jti)) return { ok: false, reason: 'bad_claims' };
    return {
      ok: true,
      principal,
      claim: {
        userId: principal.id,
        epoch: epoch as number,
        role: principal.role,
        ...(jti ? { sessionId: jti } : {}),
      },
    };
  } catch (err) {
    return { ok: false, reason: failureOf(err) };
  }
}

class UnknownKey extends Error {}

/**
 * Issued no later than now (give or take the clock tolerance) and valid no longer than auth
 * issues tokens for: a token "issued tomorrow" or valid for years was not made by auth.
 */
function plausibleTimes(payload: JWTPayload, maxLifetimeSeconds: number): boolean {
  const now = Math.floor(Date.now() / 1000);
  const { iat, exp } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number') return false;
  return iat <= now + CLOCK_TOLERANCE_SECONDS && exp - iat <= maxLifetimeSeconds;
}

function failureOf(err: unknown): TokenFailure {
  if (err instanceof UnknownKey) return 'unknown_key';
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    return err.claim === 'nbf' ? 'not_yet_valid' : 'bad_claims';
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  return 'malformed';
}

// User ids and session ids are UUIDs; anything else in `sub` or `jti` is a forged or foreign token.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function principalOf(payload: JWTPayload): Principal | undefined {
  const { sub, username, role } = payload as JWTPayload & { username?: unknown; role?: unknown };
  if (typeof sub !== 'string' || !UUID.test(sub) || typeof username !== 'string') {
    return undefined;
  }
  if (!ROLES.includes(role as Role)) return undefined;
  return { id: sub, username, role: role as Role };
}
