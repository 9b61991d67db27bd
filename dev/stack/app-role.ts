import { sql } from 'drizzle-orm';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';

/** The database role whose privileges and row-level security the workers run under (migration 0009). */
export const APP_ROLE = 'kbchat_app';
/** The login the local stack gives the workers: a member of APP_ROLE, with no password (loopback only). */
export const LOCAL_APP_LOGIN = 'kbchat_worker';

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Makes `login` act as the application role: a member of it, and neither superuser nor
 * BYPASSRLS nor the owner of the tables (any of which would switch row-level security off for
 * it). With `create`, the login is made when missing (the local stack; on Neon the role is
 * made in its console, with a password, and only granted here).
 */
export async function grantAppRole(
  db: NeonDatabase<Record<string, unknown>>,
  login: string,
  options: { create: boolean },
): Promise<void> {
  if (!ROLE_NAME.test(login)) throw new Error(`"${login}" is not a plain role name`);
  const { rows } = await db.execute<{ rolsuper: boolean; rolbypassrls: boolean; owns: boolean }>(
    sql`select r.rolsuper, r.rolbypassrls,
               exists (select 1 from pg_tables t where t.schemaname = 'public' and t.tableowner = r.rolname) as owns
        from pg_roles r where r.rolname = ${login}`,
  );
  const role = rows[0];
  if (!role) {
    if (!options.create) throw new Error(`role ${login} does not exist: create it first`);
    await db.execute(sql.raw(`CREATE ROLE ${login} LOGIN NOSUPERUSER NOBYPASSRLS`));
  } else if (role.rolsuper || role.rolbypassrls || role.owns) {
    throw new Error(
      `role ${login} is a superuser, has BYPASSRLS or owns the tables: row-level security would not apply to it; give the workers a role of their own`,
    );
  }
  await db.execute(sql.raw(`GRANT ${APP_ROLE} TO ${login}`));
}

/** The same connection string, logged in as another role (the local stack's trust login). */
export function asLogin(url: string, login: string): string {
  const parsed = new URL(url);
  parsed.username = login;
  parsed.password = '';
  return parsed.toString();
}
