import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { wranglerEnv } from '../stack/wrangler.ts';
import type { TestStack } from '../../test/stack.ts';
import { MODULE_WORKERS } from '../stack/wrangler.ts';
import { scannedFixturesForTests } from '../fixtures/scanned-pdfs.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts what the integration tests run against: the database (in-memory PGlite behind the
 * session front and relay, or DATABASE_URL when set) and the offline model endpoint (always,
 * so tests can record and fail requests), in a child process; and the module workers' bundles.
 */
export default async function setup(project: TestProject) {
  // Per project and run, so that two builds at once never overwrite each other's bundles.
  const distDir = path.join(root, 'dist', `test-${crypto.randomUUID().slice(0, 8)}`);
  const [stack, , scans] = await Promise.all([
    startStackProcess(),
    buildModules(distDir),
    // Drawn here (workerd has no canvas), cached in dev/fixtures/out/scans.
    scannedFixturesForTests(),
  ]);
  project.provide('stack', { ...stack.description, distDir });
  project.provide('scans', scans);
  return async () => {
    await stopProcess(stack.child);
    await rm(distDir, { recursive: true, force: true });
  };
}

async function startStackProcess() {
  const child = spawn(process.execPath, [path.join(root, 'dev/stack/serve.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, DATABASE_URL: process.env.DATABASE_URL ?? '' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const description = await new Promise<Omit<TestStack, 'distDir'>>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => l.startsWith('KBCHAT_STACK '));
      if (line) resolve(JSON.parse(line.slice('KBCHAT_STACK '.length)));
    });
    child.once('exit', (code) => reject(new Error(`the local stack exited with code ${code}`)));
  });
  return { child, description };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function buildModules(distDir: string): Promise<void> {
  await rm(distDir, { recursive: true, force: true });
  await Promise.all(
    MODULE_WORKERS.map(({ name, config }) =>
      run('wrangler', ['deploy', '--dry-run', '-c', config, '--outdir', path.join(distDir, name)]),
    ),
  );
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: wranglerEnv(process.env) });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}:\n${output}`)),
    );
  });
}
