import { clientAddressOf } from '#shared/audit/client-address';
import { actorOf, type AuditActor } from '#shared/audit/record';
import { principalOf } from '#shared/auth/principal';
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

/** The client's address (shared/audit/client-address.ts): the login throttle and the audit trail. */
export const clientAddress = (ctx: AuthCall): string =>
  clientAddressOf(ctx.http, authConfig(ctx.env).clientAddress);

/** Who acts in this call, for the audit trail: the logged-in user, their key, their address. */
export const auditActor = (ctx: AuthCall): AuditActor =>
  actorOf(principalOf(ctx), clientAddress(ctx));
