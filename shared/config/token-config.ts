import { z } from 'zod';
import { optionalString, positiveInt } from './load-config';

export interface TokenVerification {
  /** AUTH_PUBLIC_KEYS: a JWKS (JSON) of every public key whose tokens are accepted. */
  publicKeys: string;
  issuer: string;
  audience: string;
  /** TOKEN_TTL_SECONDS: the lifetime auth gives tokens, the most any token may claim. */
  maxLifetimeSeconds: number;
}

const jwks = z
  .string({ error: 'set AUTH_PUBLIC_KEYS to a JWKS with the public token keys' })
  .refine(
    (text) => {
      try {
        const parsed = JSON.parse(text) as { keys?: unknown };
        return Array.isArray(parsed.keys) && parsed.keys.length > 0;
      } catch {
        return false;
      }
    },
    { error: 'AUTH_PUBLIC_KEYS must be a JWKS document: {"keys":[…]}' },
  );

/** What every worker needs to check tokens locally, with the public keys only. */
export const tokenVerificationConfig = z
  .object({
    AUTH_PUBLIC_KEYS: z.preprocess((v) => (v === '' ? undefined : v), jwks),
    AUTH_ISSUER: optionalString(),
    AUTH_AUDIENCE: optionalString(),
    TOKEN_TTL_SECONDS: positiveInt(12 * 60 * 60),
  })
  .transform((env): TokenVerification => ({
    publicKeys: env.AUTH_PUBLIC_KEYS,
    issuer: env.AUTH_ISSUER ?? 'kbchat',
    audience: env.AUTH_AUDIENCE ?? 'kbchat',
    maxLifetimeSeconds: env.TOKEN_TTL_SECONDS,
  }));
