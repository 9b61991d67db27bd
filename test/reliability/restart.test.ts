import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chat, login, upload } from '../../bench/client.ts';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder.ts';
import { launchDev, type DevStack } from '../../dev/stack/launch-dev.ts';

// The whole local stack (npm run dev) is stopped while uploads and chats are in flight, then
// started again on the same data folder: every upload that had answered 200 is there and
// queryable, and an upload cut off after its file was stored finishes after the restart.

/** The file's status once it is ready or failed (the stack revives stalled ingests). */
async function settled(base: string, headers: Record<string, string>, id: string) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const res = await fetch(`${base}/moduleknowledge/file_status?id=${id}`, { headers });
    const { data } = (await res.json()) as { data: { status: string } };
    if (data.status === 'ready' || data.status === 'failed') return data.status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return 'still processing';
}

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

// Revive a stalled ingest 5 s after its last progress (60 s by default).
const WORKER_VARS = { KBCHAT_VAR_INGEST_STALE_SECONDS: '5' };

const page = (word: string) =>
  `Restart check ${word}. Residents may ask for a refund of a parking permit within 45 days; reference ${word}.`;

describe.each(['SIGINT', 'SIGTERM'] as const)(
  'stopping npm run dev with %s under load',
  (signal) => {
    it('keeps every upload that answered 200 and nothing else', async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), `kbchat-restart-${signal}-`));
      folders.push(dataDir);
      let stack: DevStack = await launchDev({ dataDir, env: WORKER_VARS });
      const token = await login(stack.baseUrl, 'admin', 'admin-password');

      const answered: { id: string; word: string }[] = [];
      const unanswered: string[] = [];
      let stopping = false;
      const uploadLoop = async (loop: number) => {
        for (let i = 0; !stopping; i++) {
          const word = `r${loop}x${i}x${Date.now().toString(36)}`;
          try {
            const res = await upload(
              stack.baseUrl,
              token,
              makeTextPdf([page(word)]),
              `${word}.pdf`,
            );
            if (res.status === 200 && res.data) answered.push({ id: res.data.id, word });
            else unanswered.push(word);
          } catch {
            unanswered.push(word); // the connection went away with the stack
          }
        }
      };
      const chatLoop = async () => {
        while (!stopping)
          await chat(stack.baseUrl, token, 'refund of a parking permit').catch(() => undefined);
      };
      const loops = [uploadLoop(0), uploadLoop(1), uploadLoop(2), chatLoop(), chatLoop()];
      // Let some uploads complete, then stop everything in the middle of the next ones.
      while (answered.length < 3) await new Promise((resolve) => setTimeout(resolve, 100));
      const code = await stack.stop(signal);
      stopping = true;
      await Promise.all(loops);
      expect(code).toBe(0);

      stack = await launchDev({ dataDir, env: WORKER_VARS });
      try {
        const again = await login(stack.baseUrl, 'admin', 'admin-password');
        const headers = { Authorization: `Bearer ${again}` };
        const files = (await (
          await fetch(`${stack.baseUrl}/moduleknowledge/list`, { headers })
        ).json()) as {
          data: { id: string; name: string }[];
        };
        const stored = new Set(files.data.map((file) => file.id));
        for (const file of answered) {
          expect(stored.has(file.id)).toBe(true);
          const query = new URLSearchParams({ text: file.word, top: '1', file_id: file.id });
          const res = await fetch(`${stack.baseUrl}/moduleknowledge/query?${query}`, { headers });
          const found = (await res.json()) as { data: { content: string }[] };
          expect(found.data[0]?.content).toContain(file.word);
        }
        // An upload cut off after its file was stored is not lost either: ingestion is
        // durable, so that file finishes after the restart (it never stays half-done). Every
        // listed file is one of the uploads.
        const names = files.data.map((file) => file.name.replace(/\.pdf$/, ''));
        const words = new Set([...answered.map((file) => file.word), ...unanswered]);
        expect(names.filter((name) => !words.has(name))).toEqual([]);
        for (const file of files.data.filter((f) => !answered.some((a) => a.id === f.id))) {
          expect(await settled(stack.baseUrl, headers, file.id), file.name).toBe('ready');
        }
      } finally {
        await stack.stop();
      }
    }, 240_000);
  },
);
