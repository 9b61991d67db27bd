// npm run dev: the whole service on one local port.
//
// Starts the database (PGlite + pgvector in .data/, or DATABASE_URL), applies migrations,
// starts the offline model endpoint when no provider is configured, then `wrangler dev` with
// the gateway first and the three module workers behind it (hot reload included). Ctrl-C
// stops everything and flushes the database.
import { spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalStack, StartupError, type LocalStack } from './stack/local-stack.ts';
import { WORKER_CONFIGS, wranglerEnv } from './stack/wrangler.ts';
import { buildWeb } from './web-build.ts';

const root = path.resolve(import.meta.dirname, '..');
// KBCHAT_DATA_DIR: another place for the local state (benchmarks run isolated stacks).
const dataDir = path.resolve(process.env.KBCHAT_DATA_DIR || path.join(root, '.data'));

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string' } },
  allowPositionals: false,
});
const port = parsePort(values.port ?? process.env.PORT ?? '8787');
const host = values.host ?? process.env.HOST ?? '127.0.0.1';

await ensurePortFree(host, port);
// The web app's bundle (workers/gateway/public/assets/), rebuilt on every change to web/;
// wrangler dev serves the new files at once.
const web = await buildWeb({ watch: true }).catch((err: unknown) =>
  fail(`the web app does not build: ${err instanceof Error ? err.message : String(err)}`),
);
let stack: LocalStack;
try {
  stack = await startLocalStack({
    env: process.env,
    dataDir: path.join(dataDir, 'pglite'),
    keysFile: path.join(dataDir, 'auth-keys.json'),
  });
} catch (err) {
  fail(err instanceof StartupError ? err.message : String(err));
}

const envFile = path.join(dataDir, 'dev.env');
await writeEnvFile(envFile, stack.workerEnv);
// The database as its owner, for local tools that look past row-level security (benchmarks,
// the retrieval evaluation, tests): never handed to the workers.
await writeEnvFile(path.join(dataDir, 'owner.env'), {
  DATABASE_URL: stack.database.databaseUrl,
  DATABASE_PROXY: stack.database.proxy,
});
printBanner(stack, host, port);

const wrangler = spawn(
  'wrangler',
  [
    'dev',
    ...WORKER_CONFIGS.flatMap((config) => ['-c', config]),
    '--port',
    String(port),
    '--ip',
    host,
    '--env-file',
    envFile,
    '--persist-to',
    path.join(dataDir, 'wrangler'),
    '--show-interactive-dev-session=false',
    // KBCHAT_INSPECTOR_PORT: the workers' V8 inspector (DevTools protocol), for the memory
    // benchmark (npm run bench:ingest reads each step's heap from it).
    ...(process.env.KBCHAT_INSPECTOR_PORT
      ? ['--inspector-port', process.env.KBCHAT_INSPECTOR_PORT]
      : []),
  ],
  { cwd: root, stdio: 'inherit', env: wranglerEnv(process.env) },
);

let stopping: Promise<never> | undefined;
function stop(code: number): Promise<never> {
  stopping ??= (async () => {
    if (wrangler.exitCode === null && wrangler.signalCode === null) {
      wrangler.kill('SIGINT');
      await new Promise((resolve) => wrangler.once('exit', resolve));
    }
    await web.dispose();
    await stack.close();
    console.log('kbchat: stopped; the database is flushed.');
    process.exit(code);
  })();
  return stopping;
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
wrangler.on('exit', (code) => void stop(code ?? 0));

function parsePort(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) fail(`invalid port: ${raw}`);
  return value;
}

async function ensurePortFree(bindHost: string, bindPort: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        err.code === 'EADDRINUSE'
          ? `port ${bindPort} is already in use. Choose another: PORT=9000 npm run dev, or npm run dev -- --port 9000`
          : `cannot listen on ${bindHost}:${bindPort}: ${err.message}`,
      ),
    );
    probe.listen(bindPort, bindHost, () => probe.close(() => resolve()));
  });
}

async function writeEnvFile(file: string, env: Record<string, string>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const body = Object.entries(env)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
  await writeFile(file, `# Written by npm run dev at each start. Local only.\n${body}\n`);
  await chmod(file, 0o600);
}

function printBanner(running: LocalStack, bindHost: string, bindPort: number): void {
  const base = `http://${bindHost === '0.0.0.0' ? '127.0.0.1' : bindHost}:${bindPort}`;
  const lines = [
    '',
    'kbchat local stack',
    `  service      ${base}/  (auth ${base}/moduleauth, knowledge ${base}/moduleknowledge, chat ${base}/modulechat)`,
    `  health       ${base}/modulechat/health  (chat -> knowledge RPC -> database, and the model)`,
    `  database     ${running.database.description}`,
    `  admin        ${running.admin.username} (set ADMIN_USERNAME / ADMIN_PASSWORD before the first start to choose)`,
    `  model        ${running.model.offline ? `OFFLINE endpoint ${running.model.baseUrl}` : running.model.baseUrl || 'OpenAI (SDK default)'}`,
    '',
  ];
  if (running.model.offline) {
    lines.push(
      '  !! OFFLINE MODE: no model provider is configured (MODEL_BASE_URL / MODEL_API_KEY /',
      '  !! OPENAI_API_KEY). Embeddings are lexical and answers are extracted from the',
      '  !! retrieved text by a local stand-in, not written by a language model.',
      '',
    );
  }
  console.log(lines.join('\n'));
}

function fail(message: string): never {
  console.error(`kbchat: ${message}`);
  process.exit(1);
}
