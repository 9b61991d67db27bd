import { importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { TOKEN_ALGORITHM } from '#shared/auth/keys';
import { roleOf } from '#shared/auth/roles';

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

/** Only auth holds the private key; the other workers verify with the public keys. */
export async function importSigningKey(jwkJson: string): Promise<SigningKey> {
  const jwk = JSON.parse(jwkJson) as JWK;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.d || !jwk.kid) {
    throw new Error('AUTH_PRIVATE_KEY must be a private Ed25519 JWK with a kid');
  }
  return { kid: jwk.kid, key: (await importJWK(jwk, TOKEN_ALGORITHM)) as CryptoKey };
}

export async function issueToken(
  user: { id: string; username: string; isSuperAdmin: boolean; sessionEpoch: number },
  signer: SigningKey,
  settings: TokenSettings,
  now = new Date(),
): Promise<{ token: string; expire: string }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + settings.ttlSeconds;
  const token = await new SignJWT({
    username: user.username,
    role: roleOf(user.isSuperAdmin),
    // The session epoch this token belongs to: moving it on ends the session (shared/auth).
    epoch: user.sessionEpoch,
  })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: signer.kid, typ: 'JWT' })
    // The session a logout ends alone (ended_sessions), leaving the user's others.
    .setJti(crypto.randomUUID())
    .setSubject(user.id)
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(signer.key);
  return { token, expire: new Date(expiresAt * 1000).toISOString() };
}

/** The JWKS to publish: public members only, whatever the configured document holds. */
export function publicJwks(jwksJson: string) {
  const { keys } = JSON.parse(jwksJson) as { keys: JWK[] };
  return {
    keys: keys.map(({ kty, crv, x, kid, alg, use }) => ({
      kty: kty ?? '',
      kid: kid ?? '',
      crv,
      x,
      alg,
      use,
    })),
  };
}
