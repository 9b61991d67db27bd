import { createAuthorize } from '../../../shared/auth/authorize';
import { roleOf, type Principal } from '../../../shared/auth/roles';
import { waitUntilOf } from '../../../shared/auth/wait-until';
import { withDatabase } from '../../../shared/db/with-database';
import { authConfig } from './config';
import * as schema from './db/schema';
import { findUserById } from './users';

/** The user as the check loaded it, complete enough for GetMe to answer without a lookup. */
export interface AuthPrincipal extends Principal {
  createdAt: string;
}

/**
 * Auth checks tokens like every worker does, and looks the user up in its own database: a
 * deleted or disabled user's still-valid token is refused, and the role is the current one.
 */
export const authorize = createAuthorize<AuthEnv>({
  verification: (env) => authConfig(env).verification,
  currentUser: (access, principal) =>
    withDatabase(authConfig(access.env).database, schema, waitUntilOf(access), async (db) => {
      const user = await findUserById(db, principal.id);
      if (!user || user.disabled) return undefined;
      const current: AuthPrincipal = {
        id: user.id,
        username: user.username,
        role: roleOf(user.isSuperAdmin),
        createdAt: user.createdAt.toISOString(),
      };
      return current;
    }),
});
