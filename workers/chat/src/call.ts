import { clientAddressOf } from '#shared/audit/client-address';
import { actorOf, type AuditActor } from '#shared/audit/record';
import { tokenOf } from '#shared/auth/authorize';
import { principalOf } from '#shared/auth/principal';
import type { Principal } from '#shared/auth/roles';
import { requestDb, type RequestDb } from '#shared/db/request-db';
import { knowledgeService } from '#shared/contracts/knowledge';
import { rpcClient, type CallContext } from '#shared/service';
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

/**
 * Knowledge through the service binding as this call's caller: their own token goes along, so
 * knowledge applies its access rules to them (a passage or file they may not read is not found).
 */
export async function knowledgeAsCaller(ctx: ChatCall) {
  const token = ctx.http ? await tokenOf({ caller: { transport: 'http', context: ctx.http } }) : '';
  return rpcClient(knowledgeService, ctx.env.KNOWLEDGE, {
    identity: { token },
    requestId: ctx.requestId,
  });
}
