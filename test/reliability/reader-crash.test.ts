import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chat, login, type ChatRun } from '../../bench/client.ts';
import { launchDev, type DevStack } from '../../dev/stack/launch-dev.ts';

// A document whose reading takes the reader's runtime down (out of memory) must take nothing
// else down with it. The reader runs in a `wrangler dev` process of its own; here its V8 heap
// is capped at 12 MB, so an ordinary 90,000-paragraph HTML page (inside every work budget)
// crashes it at every try. Meanwhile chats stream and logins succeed, and the file ends
// `failed` with `ingest_gave_up` instead of being read (and crashing the runtime) forever.

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

interface FileState {
  status: string;
  error?: { code: string; message: string };
}

async function fileState(base: string, token: string, id: string): Promise<FileState> {
  const res = await fetch(`${base}/moduleknowledge/file_status?id=${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`file_status: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: FileState }).data;
}

async function uploadAsync(base: string, token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new File([bytes], name));
  const res = await fetch(`${base}/moduleknowledge/upload?async=true`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await res.text();
  if (res.status !== 202 && res.status !== 200) throw new Error(`upload: ${res.status} ${body}`);
  return (JSON.parse(body) as { data: { id: string } }).data.id;
}

describe('a document that crashes the document reader', () => {
  it('fails as ingest_gave_up while chats stream and logins succeed throughout', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-reader-crash-'));
    folders.push(dataDir);
    const stack: DevStack = await launchDev({
      dataDir,
      env: {
        KBCHAT_READER_V8_FLAGS: '--max-old-space-size=12',
        // Two tries of a step, 200 ms apart: the give-up comes in seconds, not minutes.
        KBCHAT_VAR_INGEST_RETRY_LIMIT: '1',
        KBCHAT_VAR_INGEST_RETRY_DELAY_MS: '200',
      },
    });
    try {
      const base = stack.baseUrl;
      const token = await login(base, 'admin', 'admin-password');
      const policy = new TextEncoder().encode(
        'Refund rule\n\nRefunds are granted within 30 days of purchase for unused items.\n',
      );
      const ready = await uploadAsync(base, token, policy, 'refunds.txt');
      await expect
        .poll(() => fileState(base, token, ready), { timeout: 30_000 })
        .toMatchObject({
          status: 'ready',
        });

      const page = new TextEncoder().encode(`<!doctype html>${'<p>text '.repeat(90_000)}`);
      const id = await uploadAsync(base, token, page, 'large.html');

      const chats: ChatRun[] = [];
      const logins: number[] = [];
      let state = await fileState(base, token, id);
      for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
        chats.push(await chat(base, token, 'What does the refund rule say?'));
        const res = await fetch(`${base}/moduleauth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'admin-password' }),
        });
        logins.push(res.status);
        await res.arrayBuffer();
        state = await fileState(base, token, id);
        if (state.status === 'failed') break;
      }

      expect(state.status).toBe('failed');
      expect(state.error?.code).toBe('ingest_gave_up');
      expect(state.error?.message).toMatch(/given up/);
      expect(chats.length).toBeGreaterThan(0);
      expect(chats.map((run) => `${run.status} ${run.ending}`)).toEqual(
        chats.map(() => '200 done'),
      );
      expect(logins).toEqual(logins.map(() => 200));
      // The reader's runtime really went down (and was restarted by wrangler) meanwhile.
      const log = await readFile(path.join(dataDir, `stack-${new URL(base).port}.log`), 'utf8');
      expect(log).toMatch(/runtime crashed unexpectedly/);
    } finally {
      await stack.stop();
    }
  });
});
