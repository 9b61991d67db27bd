import { clientAddressOf } from '#shared/audit/client-address';
import { actorOf, type AuditActor } from '#shared/audit/record';
import { principalOf } from '#shared/auth/principal';
import type { Principal } from '#shared/auth/roles';
import { requestDb } from '#shared/db/request-db';
import type { CallContext } from '#shared/service';
import { knowledgeConfig } from './config';
import * as schema from './db/schema';
import type { KnowledgeDb } from './store/files';

export type KnowledgeCall = CallContext<KnowledgeEnv, Principal>;

/** The knowledge database for one call: the session check rides along with every batch. */
export function knowledgeDb(ctx: KnowledgeCall): KnowledgeDb {
  return requestDb(knowledgeConfig(ctx.env).database, schema, ctx.principal?.session, (p) =>
    ctx.waitUntil(p),
  );
}

/** Who acts in this call, for the audit trail: the user, their key, their client address. */
export const auditActor = (ctx: KnowledgeCall): AuditActor =>
  actorOf(principalOf(ctx), clientAddressOf(ctx.http, knowledgeConfig(ctx.env).clientAddress));
