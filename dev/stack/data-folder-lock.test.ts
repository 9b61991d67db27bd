import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimDataFolder } from './data-folder-lock.ts';

const folders: string[] = [];
afterEach(() => Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true }))));
const folder = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-lock-'));
  folders.push(dir);
  return dir;
};

/** The id of a process that has ended. */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('claimDataFolder', () => {
  it('claims a free folder, and claims it again for the same stack', async () => {
    const dir = await folder();
    expect(await claimDataFolder(dir)).toBeUndefined();
    expect(await claimDataFolder(dir)).toBeUndefined();
    expect((await readFile(path.join(dir, 'stack.pid'), 'utf8')).trim()).toBe(String(process.pid));
  });

  it('names the running stack that holds the folder, and leaves its claim', async () => {
    const dir = await folder();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      expect(await claimDataFolder(dir, holder.pid!)).toBeUndefined();
      expect(await claimDataFolder(dir)).toBe(holder.pid);
      expect((await readFile(path.join(dir, 'stack.pid'), 'utf8')).trim()).toBe(String(holder.pid));
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over the claim of a stack that was killed', async () => {
    const dir = await folder();
    await writeFile(path.join(dir, 'stack.pid'), `${await endedPid()}\n`);
    expect(await claimDataFolder(dir)).toBeUndefined();
    expect((await readFile(path.join(dir, 'stack.pid'), 'utf8')).trim()).toBe(String(process.pid));
  });
});
