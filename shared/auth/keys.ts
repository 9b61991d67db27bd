import { importJWK, type CryptoKey, type JWK } from 'jose';

/** Token signatures: Ed25519 only. HMAC, RSA and `none` are never accepted. */
export const TOKEN_ALGORITHM = 'EdDSA';

export interface VerificationKey {
  kid: string;
  key: CryptoKey;
}

/**
 * Parses the public keys that verify tokens (a JWKS document as JSON). Several keys make
 * rotation possible: tokens signed by the old key stay valid while the new one signs.
 * Keys of any other type or algorithm are refused here, not at request time.
 */
export async function importVerificationKeys(jwksJson: string): Promise<VerificationKey[]> {
  const { keys } = JSON.parse(jwksJson) as { keys?: JWK[] };
  if (!Array.isArray(keys) || keys.length === 0) throw new Error('the JWKS has no keys');
  return Promise.all(
    keys.map(async (jwk) => {
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.kid || 'd' in jwk) {
        throw new Error('every verification key must be a public Ed25519 JWK with a kid');
      }
      return { kid: jwk.kid, key: (await importJWK(jwk, TOKEN_ALGORITHM)) as CryptoKey };
    }),
  );
}
