import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chat, login, upload } from '../../bench/client.ts';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder.ts';
import { launchDev, type DevStack } from '../../dev/stack/launch-dev.ts';

// The whole local stack (npm run dev) is stopped while uploads and chats are in flight, then
// started again on the same data folder: every upload that had answered 200 is there and
// queryable, and none that had not answered 200 left a file behind.

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

const page = (word: string) =>
  `Restart check ${word}. Residents may ask for a refund of a parking permit within 45 days; reference ${word}.`;

describe.each(['SIGINT', 'SIGTERM'] as const)(
  'stopping npm run dev with %s under load',
  (signal) => {
    it('keeps every upload that answered 200 and nothing else', async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), `kbchat-restart-${signal}-`));
      folders.push(dataDir);
      let stack: DevStack = await launchDev({ dataDir });
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

      stack = await launchDev({ dataDir });
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
        const names = files.data.map((file) => file.name.replace(/\.pdf$/, ''));
        expect(names.filter((name) => unanswered.includes(name))).toEqual([]);
        expect(files.data).toHaveLength(answered.length);
      } finally {
        await stack.stop();
      }
    }, 240_000);
  },
);
