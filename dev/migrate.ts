// npm run db:migrate: the deploy step for a database. Applies migrations/ to DATABASE_URL (and
// to AUTH_DATABASE_URL / KNOWLEDGE_DATABASE_URL / CHAT_DATABASE_URL when a module has its own database), then runs
// the modules' set-up steps: auth's first super admin from ADMIN_USERNAME / ADMIN_PASSWORD
// (both required; created once, never overwritten); and, with APP_DATABASE_ROLE, makes that
// role (made beforehand, e.g. in Neon's console) a member of the application role kbchat_app,
// whose privileges and row-level security the workers run under: their DATABASE_URL logs in
// as it, never as the owner that migrates. Any Postgres with pgvector works; a non-Neon one is
// reached through the local relay.
import { startDatabase } from './stack/database.ts';
import { describeError } from './stack/describe-error.ts';
import { grantAppRole } from './stack/app-role.ts';
import { applyMigrations, withPool } from './stack/migrate.ts';
import { runSeeds } from './stack/seed.ts';

const shared = process.env.DATABASE_URL;
const authUrl = process.env.AUTH_DATABASE_URL || shared;
const urls = [
  ...new Set(
    [shared, authUrl, process.env.KNOWLEDGE_DATABASE_URL, process.env.CHAT_DATABASE_URL].filter(
      Boolean,
    ),
  ),
];
const admin = {
  username: process.env.ADMIN_USERNAME ?? '',
  password: process.env.ADMIN_PASSWORD ?? '',
};

if (urls.length === 0)
  fail('set DATABASE_URL (and AUTH_/KNOWLEDGE_/CHAT_DATABASE_URL if separate).');
if (!admin.username || !admin.password) {
  fail('set ADMIN_USERNAME and ADMIN_PASSWORD: the first super admin is created with them.');
}

for (const url of urls as string[]) {
  const database = await startDatabase({ externalUrl: url });
  const settings = { url: database.databaseUrl, proxy: database.proxy };
  try {
    await applyMigrations(settings);
    const seeded = url === authUrl ? (await runSeeds(settings, admin)).admin : undefined;
    const appRole = process.env.APP_DATABASE_ROLE;
    if (appRole) await withPool(settings, (db) => grantAppRole(db, appRole, { create: false }));
    const note =
      (seeded ? `; super admin ${admin.username}: ${seeded}` : '') +
      (appRole ? `; ${appRole} acts as kbchat_app` : '');
    console.log(`db:migrate: ${database.description} is up to date${note}`);
  } catch (err) {
    console.error(`db:migrate: ${database.description}: ${describeError(err)}`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

function fail(message: string): never {
  console.error(`db:migrate: ${message}`);
  process.exit(1);
}
