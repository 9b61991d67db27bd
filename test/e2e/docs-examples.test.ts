// The docs' examples, run as a reader would run them: every `curl` example of the README and of
// docs/api.md against `npm run dev`'s stack, in one shell per document, and each output
// compared by shape with what the document shows (test/docs/expected-output.ts). A change to a
// response's shape fails here until the docs say it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docExamples } from '../docs/doc-examples.ts';
import { mismatches } from '../docs/expected-output.ts';
import { ShellSession } from '../docs/shell-session.ts';
import { adminToken, deleteFileViaApi, listFiles, stack } from './helpers';

const root = path.resolve(import.meta.dirname, '../..');
const DOCUMENTS = ['README.md', 'docs/api.md', 'docs/keeping.md'];

describe.each(DOCUMENTS)('the examples of %s', (file) => {
  it('run, and print what the document shows', { timeout: 300_000 }, async () => {
    const { steps, unmarkedCurl } = docExamples(await readFile(path.join(root, file), 'utf8'));
    expect(unmarkedCurl, `${file}: curl examples not marked <!-- run --> (lines)`).toEqual([]);
    expect(steps.length).toBeGreaterThan(0);
    const shell = new ShellSession({ cwd: root, env: { B: stack().baseUrl } });
    const failures: string[] = [];
    // The examples upload as the admin, into the shared collection: the other files' tests see
    // what the admin sees, and find the stack as it was, whichever order the files run in.
    const token = await adminToken();
    const before = new Set((await listFiles(token)).map((file) => file.id));
    try {
      for (const step of steps) {
        const { stdout, stderr, status } = await shell.run(step.command);
        const where = `${file}:${step.line} ${step.command.split('\n')[0]}`;
        if (status !== 0) failures.push(`${where}: exit status ${status} ${stderr.slice(0, 300)}`);
        else if (step.expected) {
          for (const found of mismatches(step.expected, stdout))
            failures.push(`${where}: ${found}`);
        }
      }
    } finally {
      shell.close();
      for (const file of await listFiles(token)) {
        if (!before.has(file.id)) await deleteFileViaApi(token, file.id);
      }
    }
    expect(failures).toEqual([]);
  });
});
