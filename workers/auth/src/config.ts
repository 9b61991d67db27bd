import { z } from 'zod';
import { clientAddressConfig } from '#shared/audit/client-address';
import { databaseConfig } from '#shared/config/database-config';
import {
  boolean,
  defineConfig,
  optionalString,
  optionalUrl,
  positiveInt,
} from '#shared/config/load-config';
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

/**
 * Single sign-on with an OpenID Connect provider (docs/sso.md): off unless OIDC_ISSUER is set.
 * The client secret is a secret (`wrangler secret put OIDC_CLIENT_SECRET`), never a var.
 */
const ssoConfig = z
  .object({
    OIDC_ISSUER: optionalUrl(),
    OIDC_CLIENT_ID: optionalString(),
    OIDC_CLIENT_SECRET: optionalString(),
    OIDC_LABEL: optionalString(),
    OIDC_SCOPES: optionalString(),
    OIDC_REDIRECT_URI: optionalUrl(),
    OIDC_MATCH_EMAIL: boolean(false),
    OIDC_CREATE_USERS: boolean(true),
    OIDC_MAX_PENDING: positiveInt(10_000),
    OIDC_MAX_PENDING_PER_ADDRESS: positiveInt(100),
    OIDC_ADMIN_CLAIM: optionalString(),
    OIDC_ADMIN_VALUE: optionalString(),
  })
  .superRefine((env, issues) => {
    const need = (name: string, when: string) =>
      issues.addIssue({ code: 'custom', path: [name], message: `set ${name} ${when}` });
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) need('OIDC_CLIENT_ID', 'with OIDC_ISSUER');
    if (env.OIDC_ADMIN_CLAIM && !env.OIDC_ADMIN_VALUE)
      need('OIDC_ADMIN_VALUE', 'with OIDC_ADMIN_CLAIM');
  })
  .transform((env) =>
    env.OIDC_ISSUER && env.OIDC_CLIENT_ID
      ? {
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID,
          clientSecret: env.OIDC_CLIENT_SECRET,
          label: env.OIDC_LABEL ?? 'single sign-on',
          scopes: env.OIDC_SCOPES ?? 'openid profile email',
          redirectUri: env.OIDC_REDIRECT_URI,
          matchEmail: env.OIDC_MATCH_EMAIL,
          createUsers: env.OIDC_CREATE_USERS,
          maxPending: { total: env.OIDC_MAX_PENDING, perAddress: env.OIDC_MAX_PENDING_PER_ADDRESS },
          adminClaim: env.OIDC_ADMIN_CLAIM
            ? { claim: env.OIDC_ADMIN_CLAIM, value: env.OIDC_ADMIN_VALUE ?? '' }
            : undefined,
        }
      : undefined,
  );

export type SsoSettings = NonNullable<z.output<typeof ssoConfig>>;

const unsetOn = (v: unknown) => (v === '' || v === undefined ? 'on' : v);

/** The auth module's one config loader. */
export const authConfig = defineConfig({
  database: databaseConfig('AUTH_DATABASE_URL'),
  verification: tokenVerificationConfig,
  signing: signingConfig,
  signup: z.object({ ALLOW_SIGNUP: boolean(false) }).transform((env) => env.ALLOW_SIGNUP),
  /** AUTH_LOCAL_PASSWORDS=off: no password login, sign-up or change (single sign-on only). */
  passwords: z
    .object({
      AUTH_LOCAL_PASSWORDS: z.preprocess(unsetOn, z.enum(['on', 'off'])),
      OIDC_ISSUER: optionalString(),
    })
    .refine((env) => env.AUTH_LOCAL_PASSWORDS === 'on' || env.OIDC_ISSUER, {
      path: ['AUTH_LOCAL_PASSWORDS'],
      message: 'AUTH_LOCAL_PASSWORDS=off needs single sign-on (OIDC_ISSUER): nobody could sign in',
    })
    .transform((env) => env.AUTH_LOCAL_PASSWORDS === 'on'),
  sso: ssoConfig,
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
