import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** A running `npm run dev` stack of its own: benchmarks, load runs and end-to-end tests. */
export interface DevStack {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** The offline model endpoint's controls (…/_control). */
  modelControlUrl: string;
  dataDir: string;
  /**
   * Stops it with a signal (SIGINT like Ctrl-C, SIGTERM, or SIGKILL to every process of the
   * stack at once); resolves with the exit code.
   */
  stop(signal?: 'SIGINT' | 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
  /** The last lines it printed, for failure messages. */
  tail(): Promise<string>;
  /** Where everything it prints is written. */
  logFile: string;
}

const root = path.resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * Starts `node dev/dev.ts` on a free loopback port with its state in `dataDir` and the
 * offline model (provider settings are removed from its environment), and waits until
 * knowledge answers its health check. Restarting with the same `dataDir` finds the same data.
 */
export async function launchDev(options: {
  dataDir: string;
  env?: Record<string, string>;
}): Promise<DevStack> {
  const port = await freePort();
  const logFile = path.join(options.dataDir, `stack-${port}.log`);
  await mkdir(options.dataDir, { recursive: true });
  const log = createWriteStream(logFile);
  const child = spawn(
    process.execPath,
    ['dev/dev.ts', '--port', String(port), '--host', '127.0.0.1'],
    // Its own process group: a hard stop ends wrangler and workerd with it.
    {
      cwd: root,
      env: devEnv(options.dataDir, options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const pid = child.pid!;
  let output = '';
  const collect = (data: Buffer) => {
    log.write(data);
    if (output.length < 64 * 1024) output += data.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const tail = async () =>
    (await readFile(logFile, 'utf8').catch(() => output)).split('\n').slice(-40).join('\n');

  let stopping: Promise<number | null> | undefined;
  const stop = (signal: 'SIGINT' | 'SIGTERM' | 'SIGKILL' = 'SIGINT') =>
    (stopping ??= (async () => {
      // SIGKILL: the whole group at once, as a crash or a power cut would: no clean-up at all.
      if (alive()) process.kill(signal === 'SIGKILL' ? -pid : pid, signal);
      const timeout = new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref(),
      );
      const code = await Promise.race([exited, timeout]);
      try {
        process.kill(-pid, 'SIGKILL'); // whatever of the group is left (nothing, normally)
      } catch {
        // the group is gone
      }
      await new Promise<void>((resolve) => log.end(resolve));
      return code === 'timeout' ? null : code;
    })());

  const started = Date.now();
  const baseUrl = `http://127.0.0.1:${port}`;
  while (Date.now() - started < START_TIMEOUT_MS) {
    if (!alive()) {
      await stop();
      throw new Error(`npm run dev exited during start-up:\n${await tail()}`);
    }
    const model = /OFFLINE endpoint (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output)?.[1];
    if (model && (await healthy(baseUrl))) {
      return {
        baseUrl,
        modelControlUrl: `${model}/_control`,
        dataDir: options.dataDir,
        stop,
        tail,
        logFile,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stop();
  throw new Error(
    `npm run dev was not healthy after ${START_TIMEOUT_MS / 1000} s:\n${await tail()}`,
  );
}

function devEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Stacks for tests and benchmarks start often and rarely OCR: no warm-up run of the OCR
  // engine (6 s of CPU at each start; a first page read is that much slower instead).
  const env: NodeJS.ProcessEnv = {
    OCR_WARM_UP: 'off',
    ...process.env,
    ...extra,
    KBCHAT_DATA_DIR: dataDir,
  };
  // Always the local database, the offline model and the local admin, whatever the shell has.
  for (const name of [
    'DATABASE_URL',
    'AUTH_DATABASE_URL',
    'KNOWLEDGE_DATABASE_URL',
    'CHAT_DATABASE_URL',
    'MODEL_BASE_URL',
    'MODEL_API_KEY',
    'OPENAI_API_KEY',
    'ADMIN_USERNAME',
    'ADMIN_PASSWORD',
    'PORT',
    'HOST',
  ]) {
    delete env[name];
  }
  // wrangler needs the project's Node 22, which `npm run` puts first on PATH.
  env.PATH = [path.join(root, 'node_modules', '.bin'), env.PATH]
    .filter(Boolean)
    .join(path.delimiter);
  return env;
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/moduleknowledge/health`, {
      signal: AbortSignal.timeout(5_000),
    });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
