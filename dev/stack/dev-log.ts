import type { Readable, Writable } from 'node:stream';
import { redactText } from '#shared/log/logger';

/**
 * Copies a process's output to ours line by line with every credential taken out: the local
 * dev server prints each request's URL (`GET /moduleknowledge/kbc_… 404`), and a client may put
 * a token or a key anywhere in it — the path, the query, percent-encoded. The workers' own
 * JSON logs are redacted where they are written (shared/log/logger.ts); this is the same rule
 * for what wrangler and workerd print themselves.
 */
export function copyRedacted(from: Readable, to: Writable): void {
  let pending = '';
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    if (lines.length > 0) to.write(`${lines.map(redactText).join('\n')}\n`);
  });
  from.on('end', () => {
    if (pending) to.write(redactText(pending));
    pending = '';
  });
}
