// npm run build: `wrangler deploy --dry-run` for every worker into dist/<worker>, then the
// size of each bundle (raw and gzip) against the Workers limits. CI runs it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { MODULE_WORKERS, wranglerEnv } from './stack/wrangler.ts';
import { buildWeb } from './web-build.ts';

// Compressed size limits per worker (Cloudflare docs, Workers limits): Free 3 MB, Paid 10 MB.
const FREE_LIMIT = 3 * 1024 * 1024;
const PAID_LIMIT = 10 * 1024 * 1024;

const root = path.resolve(import.meta.dirname, '..');
// The web app first: its bundle is the gateway's static assets (wrangler.toml [assets]).
await buildWeb();
const rows: string[] = [];
// The OCR worker's bundle is checked too; its container image needs Docker to build, which
// the dry run leaves out (--containers-rollout=none), as a deploy without Docker would.
const OCR_WORKER = {
  name: 'ocr',
  config: 'workers/ocr/wrangler.toml',
  args: ['--containers-rollout=none'],
};
const workers: { name: string; config: string; args?: string[] }[] = [
  { name: 'gateway', config: 'wrangler.toml' },
  ...MODULE_WORKERS,
  OCR_WORKER,
];
for (const { name, config, args = [] } of workers) {
  const outdir = path.join(root, 'dist', name);
  const dryRun = ['deploy', '--dry-run', ...args, '-c', config, '--outdir', outdir];
  const run = spawnSync('wrangler', dryRun, {
    cwd: root,
    encoding: 'utf8',
    env: wranglerEnv(process.env),
  });
  if (run.status !== 0) {
    process.stderr.write(run.stdout + run.stderr);
    process.exit(1);
  }
  const files = readdirSync(outdir).filter((f) => !f.endsWith('.map') && !f.endsWith('.json'));
  const raw = files.reduce((sum, f) => sum + statSync(path.join(outdir, f)).size, 0);
  const gzip = files.reduce(
    (sum, f) => sum + gzipSync(readFileSync(path.join(outdir, f))).length,
    0,
  );
  const verdict = gzip < FREE_LIMIT ? 'fits Free' : gzip < PAID_LIMIT ? 'needs Paid' : 'TOO LARGE';
  rows.push(`| ${name} | ${kib(raw)} | ${kib(gzip)} | ${verdict} |`);
  if (gzip >= PAID_LIMIT) process.exitCode = 1;
}
console.log('| worker | bundle | gzip | limit (3 MiB Free / 10 MiB Paid, gzip) |');
console.log('|---|---|---|---|');
console.log(rows.join('\n'));

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
