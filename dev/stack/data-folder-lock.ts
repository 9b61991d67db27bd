import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Claims a data folder for one running stack: two stacks on one folder would open the same
 * PGlite files and each wipe the other's dev registry. The claim is a file with the owner's
 * process id; a claim whose process is gone (the stack was killed) is taken over.
 *
 * Returns the process id of the stack that holds the folder, or undefined when it is ours now.
 */
export async function claimDataFolder(
  dataDir: string,
  pid = process.pid,
): Promise<number | undefined> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'stack.pid');
  const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(holder) && holder !== pid && isRunning(holder)) return holder;
  await writeFile(file, `${pid}\n`);
  return undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
