import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { HOSTILE_DOCUMENTS, type HostileDocument } from '../../dev/fixtures/hostile-documents';
import { call, seededAdminToken } from '../helpers/auth';
import { queryRows } from '../helpers/database';
import { bucketHashes, expectProblem, sha256Hex, upload, uploadOk } from '../helpers/hostile';

// Small files whose reading would cost far more work and memory than their size says (the
// review's 84 KB Word file took 1.4 GB and crashed the runtime again at every revival). Each
// is refused by a work budget, as document_too_complex, while everyone else goes on chatting.

const fixture = (name: string): HostileDocument => {
  const found = HOSTILE_DOCUMENTS.find((doc) => doc.name.startsWith(name));
  if (!found) throw new Error(`no hostile document named ${name}`);
  return found;
};
const PICKED = [
  fixture('Word: 850,000 one-letter paragraphs'),
  fixture('HTML: formatting elements re-opened'),
  fixture('Markdown: block quotes nested'),
  fixture('text: 5 million characters'),
];

interface FileState {
  status: string;
  error?: { code: string; message: string };
}

async function stateOf(token: string, id: string): Promise<FileState> {
  const res = await call(`/moduleknowledge/file_status?id=${id}`, { token });
  expect(res.status).toBe(200);
  return (await res.json<{ data: FileState }>()).data;
}

/** One chat, read to the end of its stream: how it ended. */
async function chatToEnd(token: string, prompt: string): Promise<string> {
  const res = await call('/modulechat/chat', { token, json: { prompt } });
  if (res.status !== 200) return `status ${res.status}`;
  const body = await res.text();
  if (body.includes('event: done')) return 'done';
  return body.includes('"type":"error"') ? 'error message' : 'cut off';
}

describe('hostile documents while others chat', () => {
  it('each ends failed as document_too_complex, and every chat meanwhile streams to its end', async () => {
    const token = await seededAdminToken();
    const tag = crypto.randomUUID().slice(0, 8);
    await uploadOk(
      token,
      new TextEncoder().encode(
        `Refund rule ${tag}\n\nRefunds ${tag} are granted within 30 days.\n`,
      ),
      'refunds.txt',
    );
    const ids: string[] = [];
    for (const doc of PICKED) {
      const form = new FormData();
      form.append('file', new File([await doc.bytes()], doc.fileName));
      const res = await call('/moduleknowledge/upload?async=true', { token, body: form });
      expect(res.status, `${doc.name}: ${await res.clone().text()}`).toBe(202);
      ids.push((await res.json<{ data: { id: string } }>()).data.id);
    }

    const chats: string[] = [];
    let states: FileState[] = [];
    for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
      chats.push(await chatToEnd(token, `What does the refund rule ${tag} say?`));
      states = await Promise.all(ids.map((id) => stateOf(token, id)));
      if (states.every((state) => state.status === 'failed')) break;
    }
    expect(states.map((state) => [state.status, state.error?.code])).toEqual(
      PICKED.map(() => ['failed', 'document_too_complex']),
    );
    for (const state of states) expect(state.error?.message).toMatch(/too large or too complex/);
    expect(chats.length).toBeGreaterThan(0);
    expect(chats).toEqual(chats.map(() => 'done'));
  });

  it('a synchronous upload of the review’s Word file answers 422 and leaves no row or object', async () => {
    const token = await seededAdminToken();
    const bytes = await fixture('Word: 850,000 one-letter paragraphs').bytes();
    const hash = await sha256Hex(bytes);
    const res = await upload(token, bytes, 'paragraphs.docx', 'application/octet-stream');
    const problem = await expectProblem(res, [422], ['document_too_complex']);
    expect(problem.detail).toMatch(/more than 200,000 paragraphs/);
    expect(await queryRows(sql`select id from files where sha256 = ${hash}`)).toEqual([]);
    expect([...(await bucketHashes()).values()]).not.toContain(hash);
  });
});
