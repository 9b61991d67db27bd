import { z } from 'zod';
import { clientAddressConfig } from '#shared/audit/client-address';
import { databaseConfig } from '#shared/config/database-config';
import { boolean, defineConfig, optionalString, positiveInt } from '#shared/config/load-config';
import { tokenVerificationConfig } from '#shared/config/token-config';
import type { LoginLimits } from './store/login-throttle';

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
    .object({
      LOGIN_MAX_FAILURES: positiveInt(5),
      LOGIN_WINDOW_SECONDS: positiveInt(900),
      LOGIN_MAX_FAILURES_PER_ADDRESS: positiveInt(50),
      LOGIN_BACKOFF_AFTER: positiveInt(10),
    })
    .transform((env): LoginLimits => ({
      windowSeconds: env.LOGIN_WINDOW_SECONDS,
      pairLimit: env.LOGIN_MAX_FAILURES,
      addressLimit: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
      backoffAfter: env.LOGIN_BACKOFF_AFTER,
    })),
  clientAddress: clientAddressConfig,
});

export type AuthConfig = ReturnType<typeof authConfig>;
