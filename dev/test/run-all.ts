// `npm test`: every vitest project, in two vitest processes at once. One vitest runs its pools
// one after the other: the projects inside workerd (unit, integration, integration-model,
// faults) finished before the Node ones (tooling, web, e2e, reliability) started, and the whole
// took the sum of both, 11.6 minutes on 2 cores. The two halves share nothing (each starts its
// own stacks on free ports with data folders of their own), so they run side by side.
//
// The web bundle is built once, first: the stacks the tests start use it (KBCHAT_WEB_PREBUILT)
// instead of each building its own into the folder the other half serves.
//
// Each line is prefixed with its half; the exit code is the first failure's. Arguments are
// handed to one plain `vitest run` instead (`npm test -- --project unit`).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { buildWeb } from '../web-build.ts';
import { HALVES } from './halves.ts';

const extra = process.argv.slice(2);
if (extra.length > 0) process.exit(await vitest(['run', ...extra], ''));

const started = Date.now();
// The web bundle once, for every stack the tests start and for the gateway inside workerd.
await buildWeb({ quiet: true });
const codes = await Promise.all(
  Object.entries(HALVES).map(([half, projects]) =>
    vitest(['run', ...projects.flatMap((name) => ['--project', name])], `[${half}] `),
  ),
);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const failed = codes.find((code) => code !== 0);
console.log(`\nnpm test: ${failed === undefined ? 'passed' : 'FAILED'} in ${minutes} minutes`);
process.exit(failed ?? 0);

/** One vitest process; its output, each line prefixed, goes to ours. Resolves with its code. */
function vitest(args: string[], prefix: string): Promise<number> {
  const child = spawn('vitest', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KBCHAT_WEB_PREBUILT: '1' },
  });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) =>
      to.write(`${prefix}${line}\n`),
    );
  }
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}
