import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Writable } from 'node:stream';

export interface RunningOcr {
  /** OCR_URL for the knowledge worker; undefined when OCR is off. */
  baseUrl: string | undefined;
  /** true when this stack started the service as a child process. */
  local: boolean;
  close(): Promise<void>;
}

export interface StartOcrOptions {
  /** How long the local service may take to say it listens; 30 s by default. */
  timeoutMs?: number;
  /** Where the local service's output goes, each line prefixed `ocr: `; stdout by default. */
  output?: Writable;
}

/** The service's entry point, run by this Node (services/ocr, an npm workspace). */
export const OCR_SERVER = path.resolve(import.meta.dirname, '../../services/ocr/src/server.ts');
const READY = /kbchat-ocr listening on (http:\/\/\S+)/;
const STOP_TIMEOUT_MS = 5_000;
/** What the service's settings are made of; nothing else of ours reaches it (no secrets). */
const PASSED_ON = /^(OCR_|PATH$|HOME$|TMPDIR$|TEMP$|TMP$|LANG$|LC_|SYSTEMROOT$)/;

/**
 * The OCR service of the local stack: OCR_URL when it is set (nothing started), none when
 * OCR=off, otherwise services/ocr as a child process on a free loopback port (OCR_PORT to
 * choose one). A process of its own, not a module of ours: rendering and recognising a page is
 * seconds of CPU that would stall the embedded database's event loop.
 */
export async function startOcr(
  env: NodeJS.ProcessEnv,
  options: StartOcrOptions = {},
): Promise<RunningOcr> {
  if (env.OCR_URL) return { baseUrl: env.OCR_URL, local: false, close: async () => {} };
  if (env.OCR === 'off') return { baseUrl: undefined, local: false, close: async () => {} };

  const output = options.output ?? process.stdout;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (PASSED_ON.test(name) && value !== undefined) childEnv[name] = value;
  }
  Object.assign(childEnv, {
    HOST: '127.0.0.1',
    PORT: env.OCR_PORT || '0',
    // The service stops when our end of its stdin closes: when this process exits, however it
    // exits, no OCR service is left behind holding its memory.
    OCR_STOP_ON_STDIN_END: '1',
  });
  const child = spawn(process.execPath, [OCR_SERVER], {
    env: childEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  let closing = false;
  let recent = '';

  const baseUrl = await new Promise<string>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      fail(`did not say it was listening within ${Math.round(timeoutMs / 1000)} s`);
      child.kill('SIGKILL');
    }, timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      const tail = recent.trim().split('\n').slice(-10).join('\n');
      reject(
        new Error(
          `The OCR service (${path.relative(process.cwd(), OCR_SERVER)}) ${why}.` +
            (tail ? `\nIts last words:\n${tail}` : '') +
            '\nOCR=off npm run dev starts the stack without it.',
        ),
      );
    };
    forwardLines(child.stdout, output, (line) => {
      if (!ready) {
        const match = READY.exec(line);
        if (match) {
          ready = true;
          clearTimeout(timer);
          resolve(match[1]!);
        }
      }
    });
    forwardLines(child.stderr, output, (line) => {
      if (!ready) recent = (recent + line + '\n').slice(-4000);
    });
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (!ready) fail(`exited during start-up (${signal ?? `code ${code}`})`);
      else if (!closing)
        output.write(`ocr: the OCR service exited (${signal ?? `code ${code}`})\n`);
    });
    child.stdin.on('error', () => {}); // the service gone first: nothing to tell it any more
  });

  return {
    baseUrl,
    local: true,
    async close() {
      closing = true;
      if (!alive()) return;
      child.kill('SIGTERM');
      const timeout = new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref(),
      );
      if ((await Promise.race([exited, timeout])) === 'timeout' && alive()) {
        child.kill('SIGKILL');
        await exited;
      }
      child.stdin.destroy();
    },
  };
}

/** Copies `from` to `to` line by line, prefixed `ocr: `, telling `onLine` each line. */
function forwardLines(
  from: NodeJS.ReadableStream,
  to: Writable,
  onLine: (line: string) => void,
): void {
  let pending = '';
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      onLine(line);
      to.write(`ocr: ${line}\n`);
    }
  });
  from.on('end', () => {
    if (pending) {
      onLine(pending);
      to.write(`ocr: ${pending}\n`);
    }
    pending = '';
  });
}
