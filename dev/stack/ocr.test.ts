import { spawn } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startOcr } from './ocr.ts';

const QUIET = { OCR_WARM_UP: 'off', PATH: process.env.PATH };

function capture() {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { output, text: () => text };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).ok;
  } catch {
    return false;
  }
}

describe('startOcr', () => {
  it('uses OCR_URL as it is, starting nothing', async () => {
    const ocr = await startOcr({ OCR_URL: 'https://ocr.example.com/base' });
    expect(ocr).toMatchObject({ baseUrl: 'https://ocr.example.com/base', local: false });
    await ocr.close();
  });

  it('has no OCR service with OCR=off', async () => {
    const ocr = await startOcr({ OCR: 'off' });
    expect(ocr).toMatchObject({ baseUrl: undefined, local: false });
    await ocr.close();
  });

  it('starts the service as a child process on loopback, and stops it', async () => {
    const { output, text } = capture();
    const ocr = await startOcr({ ...QUIET, OCR_API_KEY: 'local-key' }, { output });
    try {
      expect(ocr.local).toBe(true);
      expect(ocr.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await (await fetch(`${ocr.baseUrl}/health`)).json();
      expect(health).toEqual({ ok: true, engine: 'PP-OCRv4', busy: 0, queued: 0 });
      // Its settings come from our OCR_* variables.
      const read = await fetch(`${ocr.baseUrl}/v1/read?first=1&last=1`, { method: 'POST' });
      expect(read.status).toBe(401);
      expect(text()).toMatch(/^ocr: kbchat-ocr listening on http:\/\/127\.0\.0\.1:\d+/m);
    } finally {
      await ocr.close();
    }
    expect(await answers(ocr.baseUrl!)).toBe(false);
  });

  it('fails with the service’s own words when it cannot start', async () => {
    const { output } = capture();
    const failing = startOcr({ ...QUIET, OCR_DPI: 'sharp' }, { output });
    await expect(failing).rejects.toThrow(/exited during start-up[\s\S]*OCR_DPI must be/);
    await expect(failing).rejects.toThrow(/OCR=off npm run dev/);
  });

  it('leaves no service behind when the process that started it is killed', async () => {
    const script = [
      `const { startOcr } = await import(${JSON.stringify(path.join(import.meta.dirname, 'ocr.ts'))});`,
      `const ocr = await startOcr({ OCR_WARM_UP: 'off', PATH: process.env.PATH }, { output: process.stderr });`,
      'console.log(ocr.baseUrl);',
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      parent.stdout.setEncoding('utf8');
      parent.stdout.on('data', (line: string) => resolve(line.trim()));
      parent.once('exit', (code) => reject(new Error(`the parent exited (${code})`)));
    });
    expect(await answers(url)).toBe(true);
    parent.kill('SIGKILL');
    await expect.poll(() => answers(url), { timeout: 10_000 }).toBe(false);
  });
});
