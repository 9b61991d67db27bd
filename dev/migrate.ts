// npm run db:migrate: applies migrations/ to DATABASE_URL (and to AUTH_DATABASE_URL /
// KNOWLEDGE_DATABASE_URL when a module has its own database). The deploy step for Neon;
// any other Postgres with pgvector is reached through the local relay.
import { startDatabase } from './stack/database.ts';
import { describeError } from './stack/describe-error.ts';
import { applyMigrations } from './stack/migrate.ts';

const urls = [
  ...new Set(
    [
      process.env.DATABASE_URL,
      process.env.AUTH_DATABASE_URL,
      process.env.KNOWLEDGE_DATABASE_URL,
    ].filter((url): url is string => Boolean(url)),
  ),
];
if (urls.length === 0) {
  console.error('db:migrate: set DATABASE_URL (and AUTH_/KNOWLEDGE_DATABASE_URL if separate).');
  process.exit(1);
}
for (const url of urls) {
  const database = await startDatabase({ externalUrl: url });
  try {
    await applyMigrations({ url: database.databaseUrl, wsProxy: database.wsProxy });
    console.log(`db:migrate: ${database.description} is up to date`);
  } catch (err) {
    console.error(`db:migrate: ${database.description}: ${describeError(err)}`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}
