// npm run audit:verify: checks the audit trail's hash chain (docs/audit.md). Connects as the
// database's owner, like npm run db:migrate: DATABASE_URL when set, else the local data folder
// (KBCHAT_DATA_DIR or .data) — through the running dev stack when there is one, or by opening
// its PGlite folder. Prints how many records, the head hash (the anchor to write down
// elsewhere) and the first broken record with why; exits 1 on a break.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { withPool } from './stack/migrate.ts';
import { claimDataFolder } from './stack/data-folder-lock.ts';
import { startDatabase, type RunningDatabase } from './stack/database.ts';
import { describeError } from './stack/describe-error.ts';
import { verifyAuditChain } from './audit/chain.ts';

const root = path.resolve(import.meta.dirname, '..');

async function openDatabase(): Promise<{
  settings: { url: string; proxy?: string };
  running?: RunningDatabase;
}> {
  const external = process.env.AUTH_DATABASE_URL || process.env.DATABASE_URL;
  if (external) {
    const running = await startDatabase({ externalUrl: external });
    return { settings: { url: running.databaseUrl, proxy: running.proxy }, running };
  }
  const dataDir = path.resolve(process.env.KBCHAT_DATA_DIR || path.join(root, '.data'));
  const holder = await claimDataFolder(dataDir);
  if (holder !== undefined) {
    // The dev stack has the folder open: go through its database as its owner (owner.env).
    const text = await readFile(path.join(dataDir, 'owner.env'), 'utf8');
    const env = Object.fromEntries(
      text
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    if (!env.DATABASE_URL) throw new Error(`no DATABASE_URL in ${dataDir}/owner.env`);
    return { settings: { url: env.DATABASE_URL, proxy: env.DATABASE_PROXY || undefined } };
  }
  const running = await startDatabase({ dataDir: path.join(dataDir, 'pglite') });
  return { settings: { url: running.databaseUrl, proxy: running.proxy }, running };
}

try {
  const { settings, running } = await openDatabase();
  try {
    const started = performance.now();
    const report = await withPool(settings, (db) => verifyAuditChain(db));
    const seconds = (performance.now() - started) / 1000;
    console.log(`audit:verify: ${report.count} records checked in ${seconds.toFixed(1)} s`);
    if (report.firstId !== null) {
      console.log(
        `  chain from record ${report.firstId} (${report.start === 'after prune' ? 'after a recorded prune' : 'the first record ever'})`,
      );
    }
    console.log(`  head hash ${report.head ?? '(empty trail)'}`);
    if (report.broken) {
      console.error(`audit:verify: BROKEN at record ${report.broken.id}: ${report.broken.why}`);
      process.exitCode = 1;
    } else {
      console.log('audit:verify: the chain is whole');
    }
  } finally {
    await running?.close();
  }
} catch (err) {
  console.error(`audit:verify: ${describeError(err)}`);
  process.exitCode = 2;
}
