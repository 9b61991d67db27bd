import { importVerificationKeys, type VerificationKey } from '#shared/auth/keys';
import { hashPassword } from './password';
import { importSigningKey, type SigningKey } from './tokens';

// Per isolate: the same configured JWK always gives the same key.
const signingKeys = new Map<string, Promise<SigningKey>>();

export function signingKey(privateJwk: string): Promise<SigningKey> {
  let key = signingKeys.get(privateJwk);
  if (!key) {
    key = importSigningKey(privateJwk);
    signingKeys.set(privateJwk, key);
    key.catch(() => signingKeys.delete(privateJwk));
  }
  return key;
}

const publicKeys = new Map<string, Promise<VerificationKey[]>>();

/** The public keys (AUTH_PUBLIC_KEYS) that verify what auth signed: device cookies here. */
export function verificationKeys(jwks: string): Promise<VerificationKey[]> {
  let keys = publicKeys.get(jwks);
  if (!keys) {
    keys = importVerificationKeys(jwks);
    publicKeys.set(jwks, keys);
    keys.catch(() => publicKeys.delete(jwks));
  }
  return keys;
}

let dummy: Promise<string> | undefined;

/**
 * A hash to verify against when the username does not exist, so an unknown user costs the
 * same PBKDF2 work as a wrong password and the timing tells nothing.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomUUID());
  return dummy;
}
