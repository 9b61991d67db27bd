// npm run dev: the whole service on one local port.
//
// Starts the database (PGlite + pgvector in .data/, or DATABASE_URL), applies migrations,
// starts the offline model endpoint when no provider is configured, then two `wrangler dev`
// processes (hot reload included): knowledge's document reader in one, the gateway and the
// three module workers in the other, which reaches the reader through the dev registry. A
// document that takes the reader's runtime down takes nothing else with it. Ctrl-C stops
// everything and flushes the database.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalStack, StartupError, type LocalStack } from './stack/local-stack.ts';
import { claimDataFolder } from './stack/data-folder-lock.ts';
import { copyRedacted } from './stack/dev-log.ts';
import { READER_CONFIG, SERVING_CONFIGS, wranglerEnv } from './stack/wrangler.ts';
import { buildWeb, WEB_ASSETS_DIR } from './web-build.ts';

/** The wrangler processes started so far. */
const children: ChildProcess[] = [];
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
const holder = await claimDataFolder(dataDir);
if (holder !== undefined) {
  fail(
    `another local stack (process ${holder}) uses ${dataDir}. Stop it first, or give this one a folder of its own: KBCHAT_DATA_DIR=/tmp/kbchat-2 npm run dev -- --port 9000`,
  );
}
// Both processes register in a dev registry of this stack's own, so that two stacks on one
// machine (tests, benchmarks) never bind to each other's workers. It starts empty: a stack that
// was killed (SIGKILL, a closed terminal) leaves its workers' entries behind, and knowledge
// bound to the dead reader's address for about a minute after the restart (every upload and
// health check 503 reader_unavailable). No other stack runs on this data folder: it is claimed
// above.
const registry = path.join(dataDir, 'wrangler-registry');
await rm(registry, { recursive: true, force: true });
// The reader first, while the web app builds and the database opens (it needs neither): the
// serving process finds it registered when it starts. It keeps no state, but each runtime gets
// a storage folder of its own all the same.
// KBCHAT_READER_V8_FLAGS: V8 flags for the reader's runtime only, e.g. a smaller heap
// (`--max-old-space-size=16`) to rehearse a document that takes the reader down.
const reader = startWrangler([READER_CONFIG], {
  port: await freePort(host),
  inspectorPort: process.env.KBCHAT_READER_INSPECTOR_PORT,
  persistTo: path.join(dataDir, 'wrangler-reader'),
  v8Flags: process.env.KBCHAT_READER_V8_FLAGS,
});
/** What is up so far: a reader that exits during start-up closes it. */
const opened: { web?: { dispose(): Promise<void> }; stack?: LocalStack } = {};
const readerReady = readyOrExit(reader, 'the document reader');

// The web app's bundle (workers/gateway/public/assets/), rebuilt on every change to web/;
// wrangler dev serves the new files at once. Stacks that tests start take the bundle that was
// built for the whole test run (KBCHAT_WEB_PREBUILT=1), so that no stack rewrites the files
// another test run is serving.
const web = prebuiltWeb() ? builtForTheRun() : await buildWeb({ watch: true }).catch(cannotBuild);
opened.web = web;
let stack: LocalStack;
try {
  stack = await startLocalStack({
    env: process.env,
    dataDir: path.join(dataDir, 'pglite'),
    keysFile: path.join(dataDir, 'auth-keys.json'),
    publicUrl: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
  });
} catch (err) {
  await web.dispose();
  fail(err instanceof StartupError ? err.message : String(err));
}
opened.stack = stack;

const envFile = path.join(dataDir, 'dev.env');
await writeEnvFile(envFile, stack.workerEnv);
// The database as its owner, for local tools that look past row-level security (benchmarks,
// the retrieval evaluation, tests): never handed to the workers.
await writeEnvFile(path.join(dataDir, 'owner.env'), {
  DATABASE_URL: stack.database.databaseUrl,
  DATABASE_PROXY: stack.database.proxy,
});
printBanner(stack, host, port);

// Started once the reader listens: its port (chosen free, then released) is taken by then, and
// it is registered for the serving process to bind to.
await readerReady;
const wrangler = startWrangler(SERVING_CONFIGS, {
  port,
  inspectorPort: process.env.KBCHAT_INSPECTOR_PORT,
  envFile,
  persistTo: path.join(dataDir, 'wrangler'),
});

/**
 * One `wrangler dev` of these configs on this stack's registry and storage. Its output reaches
 * ours with credentials taken out: it prints every request's URL, wherever a client put a key.
 * The inspector port (workerd's V8 inspector, for the memory benchmark) is optional.
 */
function startWrangler(
  configs: readonly string[],
  options: {
    port: number;
    persistTo: string;
    inspectorPort?: string;
    envFile?: string;
    v8Flags?: string;
  },
) {
  const child = spawn(
    'wrangler',
    [
      'dev',
      ...configs.flatMap((config) => ['-c', config]),
      '--port',
      String(options.port),
      '--ip',
      host,
      ...(options.envFile ? ['--env-file', options.envFile] : []),
      '--persist-to',
      options.persistTo,
      '--show-interactive-dev-session=false',
      ...(options.inspectorPort ? ['--inspector-port', options.inspectorPort] : []),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...wranglerEnv(process.env),
        WRANGLER_REGISTRY_PATH: registry,
        // miniflare passes these to the workerd it starts; set for this process alone.
        MINIFLARE_WORKERD_V8_FLAGS: options.v8Flags ?? '',
      },
    },
  );
  copyRedacted(child.stdout, process.stdout);
  copyRedacted(child.stderr, process.stderr);
  children.push(child);
  return child;
}

/** Resolves when wrangler says it is ready; a wrangler that exits first stops everything. */
function readyOrExit(child: ReturnType<typeof startWrangler>, what: string): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer | string) => {
      if (!String(chunk).includes('Ready on')) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null) =>
      void (async () => {
        await opened.web?.dispose();
        await opened.stack?.close();
        fail(`${what} did not start (wrangler exited with code ${code})`);
      })();
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

let stopping: Promise<never> | undefined;
function stop(code: number): Promise<never> {
  stopping ??= (async () => {
    await Promise.all(
      [wrangler, reader].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGINT');
        await new Promise((resolve) => child.once('exit', resolve));
      }),
    );
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
reader.on('exit', (code) => void stop(code ?? 0));

function builtForTheRun() {
  console.log('web: the bundle built for this test run, workers/gateway/public/assets/');
  return { dispose: async () => undefined };
}

function cannotBuild(err: unknown): never {
  fail(`the web app does not build: ${err instanceof Error ? err.message : String(err)}`);
}

function prebuiltWeb(): boolean {
  return process.env.KBCHAT_WEB_PREBUILT === '1' && existsSync(path.join(WEB_ASSETS_DIR, 'app.js'));
}

function parsePort(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) fail(`invalid port: ${raw}`);
  return value;
}

/** A port nobody listens on now, for the reader's process (nothing connects to it). */
function freePort(bindHost: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, bindHost, () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
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
    `  OCR          ${running.ocr.baseUrl ? `${running.ocr.baseUrl}${running.ocr.local ? ' (PP-OCRv4, started here)' : ''}` : 'off (PDFs without a text layer are refused)'}`,
    ...(running.identityProvider
      ? [
          `  SSO          ${running.identityProvider.issuer}  (local identity provider: alice, bob, wang; docs/sso.md)`,
        ]
      : []),
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
  // The wrangler processes do not end with ours unless told.
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT');
  process.exit(1);
}
