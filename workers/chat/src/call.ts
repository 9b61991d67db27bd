import { clientAddressOf } from '#shared/audit/client-address';
import { actorOf, type AuditActor } from '#shared/audit/record';
import { principalOf } from '#shared/auth/principal';
import type { Principal } from '#shared/auth/roles';
import { requestDb, type RequestDb } from '#shared/db/request-db';
import type { CallContext } from '#shared/service';
import { chatConfig } from './config';
import * as schema from './db/schema';

export type ChatCall = CallContext<ChatEnv, Principal>;
export type ChatDb = RequestDb<typeof schema>;

/** The chat database for one call: the session check rides along with every batch. */
export function chatDb(ctx: ChatCall): ChatDb {
  return requestDb(chatConfig(ctx.env).database, schema, ctx.principal?.session, (p) =>
    ctx.waitUntil(p),
  );
}

/** Who acts in this call, for the audit trail: the user, their key, their client address. */
export const auditActor = (ctx: ChatCall): AuditActor =>
  actorOf(principalOf(ctx), clientAddressOf(ctx.http, chatConfig(ctx.env).clientAddress));
