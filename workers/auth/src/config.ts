import { z } from 'zod';
import { databaseConfig } from '../../../shared/config/database-config';
import {
  boolean,
  defineConfig,
  optionalString,
  positiveInt,
} from '../../../shared/config/load-config';
import { tokenVerificationConfig } from '../../../shared/config/token-config';

const signingConfig = z
  .object({
    AUTH_PRIVATE_KEY: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.string({ error: 'set AUTH_PRIVATE_KEY to the private Ed25519 JWK that signs tokens' }),
    ),
    TOKEN_TTL_SECONDS: positiveInt(12 * 60 * 60),
    AUTH_ISSUER: optionalString(),
    AUTH_AUDIENCE: optionalString(),
  })
  .transform((env) => ({
    privateKey: env.AUTH_PRIVATE_KEY,
    issuer: env.AUTH_ISSUER ?? 'kbchat',
    audience: env.AUTH_AUDIENCE ?? 'kbchat',
    ttlSeconds: env.TOKEN_TTL_SECONDS,
  }));

/** The auth module's one config loader. */
export const authConfig = defineConfig({
  database: databaseConfig('AUTH_DATABASE_URL'),
  verification: tokenVerificationConfig,
  signing: signingConfig,
  signup: z.object({ ALLOW_SIGNUP: boolean(false) }).transform((env) => env.ALLOW_SIGNUP),
  throttle: z
    .object({ LOGIN_MAX_FAILURES: positiveInt(5), LOGIN_WINDOW_SECONDS: positiveInt(60) })
    .transform((env) => ({
      maxFailures: env.LOGIN_MAX_FAILURES,
      windowSeconds: env.LOGIN_WINDOW_SECONDS,
    })),
});

export type AuthConfig = ReturnType<typeof authConfig>;
