import { createAuthorize } from '#shared/auth/authorize';
import { checkSession, keySession } from '#shared/db/request-db';
import { authConfig } from './config';

/**
 * Auth checks tokens like every worker does; whether a token's session is current is settled
 * by the session check that rides along with the call's own statements (or, for a call that
 * ran none, by that check alone).
 */
export const authorize = createAuthorize<AuthEnv>({
  verification: (env) => authConfig(env).verification,
  checkSession: (access, claim) => checkSession(authConfig(access.env).database, claim),
  resolveKey: (access, hash) => keySession(authConfig(access.env).database, hash),
});
