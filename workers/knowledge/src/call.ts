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
