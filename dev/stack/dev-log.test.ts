import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { copyRedacted } from './dev-log.ts';

describe('the dev server output', () => {
  it('reaches ours line by line with credentials taken out, even split across chunks', async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    let out = '';
    to.on('data', (chunk: Buffer) => (out += chunk.toString()));
    copyRedacted(from, to);
    const key = 'kbc_Zm9vYmFyLW5vdC1hLXJlYWwta2V5';
    from.write(`[wrangler:info] GET /moduleknowledge/${key.slice(0, 10)}`);
    from.write(`${key.slice(10)} 404 Not Found (3ms)\n[wrangler:info] GET /health 200 OK\n`);
    from.end(`[wrangler:info] GET /x/kbc%5F${key.slice(4)} 404`);
    await new Promise((resolve) => from.once('end', resolve));
    expect(out).toBe(
      '[wrangler:info] GET /moduleknowledge/[redacted] 404 Not Found (3ms)\n' +
        '[wrangler:info] GET /health 200 OK\n' +
        '[wrangler:info] GET /x/[redacted] 404',
    );
  });
});
