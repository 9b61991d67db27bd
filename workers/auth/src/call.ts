import type { Principal } from '#shared/auth/roles';
import { requestDb } from '#shared/db/request-db';
import type { CallContext } from '#shared/service';
import { authConfig } from './config';
import * as schema from './db/schema';
import type { AuthDb } from './store/users';

export type AuthCall = CallContext<AuthEnv, Principal>;

/** The auth database for one call: the session check rides along with every batch. */
export function authDb(ctx: AuthCall): AuthDb {
  return requestDb(authConfig(ctx.env).database, schema, ctx.principal?.session);
}

/**
 * The client's address for the login throttle: CF-Connecting-IP where Cloudflare's edge sets
 * it; otherwise every client counts as one address (`unknown`), since a header a client
 * could send itself cannot be trusted.
 */
export function clientAddress(ctx: AuthCall): string {
  const trusted = authConfig(ctx.env).clientAddress.trustCfConnectingIp;
  const header = trusted ? ctx.http?.req.header('CF-Connecting-IP')?.trim() : undefined;
  return header && header.length <= 64 ? header.toLowerCase() : 'unknown';
}
