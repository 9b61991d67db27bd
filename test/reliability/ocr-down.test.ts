import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { login } from '../../bench/client.ts';
import { scannedFixture } from '../../dev/fixtures/scanned-pdfs.ts';
import { launchDev, type DevStack } from '../../dev/stack/launch-dev.ts';
import { startOcr, type RunningOcr } from '../../dev/stack/ocr.ts';

// The OCR service away: a scan waits for it ("waiting for the text reader"), its steps are
// retried with backoff, and after the last try the file fails as ocr_gave_up with nothing of
// it indexed. When the service is back, a retry reads the scan and the file becomes ready.

const folders: string[] = [];
const services: RunningOcr[] = [];
afterAll(async () => {
  await Promise.all(services.map((ocr) => ocr.close()));
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface FileState {
  status: string;
  chunks: number;
  ocr?: { pages: number; pages_done: number; confidence: number | null };
  error?: { code: string; message: string };
}

/** A loopback port with nothing listening on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('a scan while the OCR service is away', () => {
  it('waits, fails as ocr_gave_up, and is read once the service is back and it is retried', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-ocr-down-'));
    folders.push(dataDir);
    const port = await closedPort();
    const stack: DevStack = await launchDev({
      dataDir,
      env: {
        OCR_URL: `http://127.0.0.1:${port}`,
        // Three tries of a step, 500 ms then 1 s apart: the give-up comes in seconds.
        KBCHAT_VAR_INGEST_RETRY_LIMIT: '2',
        KBCHAT_VAR_INGEST_RETRY_DELAY_MS: '500',
      },
    });
    try {
      const base = stack.baseUrl;
      const token = await login(base, 'admin', 'admin-password');
      const headers = { Authorization: `Bearer ${token}` };
      const state = async (id: string): Promise<FileState> => {
        const res = await fetch(`${base}/moduleknowledge/file_status?id=${id}`, { headers });
        return ((await res.json()) as { data: FileState }).data;
      };

      const scan = await scannedFixture('policy-scan-2');
      const form = new FormData();
      form.append('file', new File([scan.bytes], 'scan.pdf'));
      const upload = await fetch(`${base}/moduleknowledge/upload?async=true`, {
        method: 'POST',
        headers,
        body: form,
      });
      expect(upload.status).toBe(202);
      const { id } = ((await upload.json()) as { data: { id: string } }).data;

      // While its step is retried, the file says what it waits for.
      const seen: FileState[] = [];
      await expect
        .poll(
          async () => {
            const now = await state(id);
            seen.push(now);
            return now.status;
          },
          { timeout: 60_000, interval: 200 },
        )
        .toBe('failed');
      expect(seen).toContainEqual(
        expect.objectContaining({
          status: 'processing',
          ocr: { pages: 2, pages_done: 0, confidence: null },
          error: expect.objectContaining({ code: 'ocr_unavailable' }),
        }),
      );
      const failed = await state(id);
      expect(failed.error?.code).toBe('ocr_gave_up');
      expect(failed.error?.message).toMatch(/Retry the file later/);
      expect(failed.chunks).toBe(0);

      // The service comes back where knowledge looks for it; the uploader retries.
      services.push(await startOcr({ PATH: process.env.PATH, OCR_PORT: String(port) }));
      const retry = await fetch(`${base}/moduleknowledge/file_retry`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id }),
      });
      expect(retry.status).toBe(200);
      await expect
        .poll(() => state(id), { timeout: 120_000, interval: 500 })
        .toMatchObject({
          status: 'ready',
          ocr: { pages: 2, pages_done: 2 },
        });
      expect((await state(id)).chunks).toBeGreaterThan(0);
    } finally {
      await stack.stop();
    }
  });
});
