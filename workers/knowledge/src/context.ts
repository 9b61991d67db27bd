import type { Principal } from '../../../shared/auth/roles';
import { requestDb } from '../../../shared/db/request-db';
import { badRequest } from '../../../shared/errors/app-error';
import type { CallContext } from '../../../shared/service';
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

export function principalOf(ctx: KnowledgeCall): Principal {
  if (!ctx.principal) throw new Error(`route ${ctx.route} ran without a principal`);
  return ctx.principal;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `file_id` as the original sends it: ids joined by commas. Absent or empty: no filter. */
export function parseFileIds(value: string | undefined): string[] | undefined {
  const ids = (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) return undefined;
  const invalid = ids.filter((id) => !UUID.test(id));
  if (invalid.length > 0) {
    throw badRequest('Invalid file_id.', [
      { field: 'file_id', message: `not a file id: ${invalid[0]!.slice(0, 64)}` },
    ]);
  }
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}
