import type { Principal } from '../../../shared/auth/roles';
import { withDatabase } from '../../../shared/db/with-database';
import type { CallContext } from '../../../shared/service';
import { authConfig } from './config';
import * as schema from './db/schema';
import type { AuthDb } from './users';

export type AuthCall = CallContext<AuthEnv, Principal>;

/** The auth database for one call. */
export function authDb<T>(ctx: AuthCall, work: (db: AuthDb) => Promise<T>): Promise<T> {
  return withDatabase(authConfig(ctx.env).database, schema, ctx.waitUntil, work);
}

/** The logged-in user of a call whose route requires one. */
export function principalOf(ctx: AuthCall): Principal {
  if (!ctx.principal) throw new Error(`route ${ctx.route} ran without a principal`);
  return ctx.principal;
}
