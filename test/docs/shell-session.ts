import { spawn } from 'node:child_process';

/**
 * One bash session that runs a document's examples one after another, as a reader would in
 * one terminal: variables one step sets (`TOKEN=…`) are there for the next. Each step's
 * standard output is returned on its own, with its exit status.
 */
export class ShellSession {
  readonly #bash;
  #stdout = '';
  #stderr = '';
  #waiting: (() => void) | undefined;
  #steps = 0;

  constructor(options: { cwd: string; env: Record<string, string> }) {
    this.#bash = spawn('bash', ['--noprofile', '--norc', '-s'], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#bash.stdout.setEncoding('utf8');
    this.#bash.stderr.setEncoding('utf8');
    this.#bash.stdout.on('data', (chunk: string) => {
      this.#stdout += chunk;
      this.#waiting?.();
    });
    this.#bash.stderr.on('data', (chunk: string) => (this.#stderr += chunk));
  }

  /** Runs one command; resolves with what it printed and its exit status. */
  async run(
    command: string,
    timeoutMs = 60_000,
  ): Promise<{ stdout: string; stderr: string; status: number }> {
    const marker = `__kbchat_step_${++this.#steps}_done__`;
    this.#stdout = '';
    this.#stderr = '';
    // The marker on a line of its own, whether or not the command ended its output with one.
    this.#bash.stdin.write(`${command}\nprintf '\\n%s %d\\n' '${marker}' "$?"\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = this.#stdout.indexOf(`\n${marker} `);
      if (at !== -1) {
        const status = Number(/^ (\d+)/.exec(this.#stdout.slice(at + marker.length + 1))?.[1]);
        return { stdout: this.#stdout.slice(0, at), stderr: this.#stderr, status };
      }
      if (Date.now() > deadline) throw new Error(`no end in ${timeoutMs} ms: ${command}`);
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
  }

  close(): void {
    this.#bash.stdin.end();
    this.#bash.kill();
  }
}
