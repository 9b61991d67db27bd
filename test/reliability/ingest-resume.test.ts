import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { login } from '../../bench/client.ts';
import { makeManyPagesPdf } from '../../dev/fixtures/pdf-builder.ts';
import { launchDev, type DevStack } from '../../dev/stack/launch-dev.ts';
import pg from 'pg';
import { devDatabaseSettings } from '../../bench/eval/exact-search.ts';
import { chunkPages } from '../../workers/knowledge/src/ingest/chunker.ts';
import { extractPdfText } from '../../workers/knowledge/src/ingest/pdf-text.ts';

// A 150-page upload is being ingested when the whole local stack stops — by Ctrl-C (SIGINT),
// SIGTERM, or SIGKILL with no chance to clean up — and is started again on the same data
// folder: the ingest resumes and finishes with exactly the chunks a clean run makes (the same
// count, each chunk index once, every page), nothing lost and nothing twice.
//
// What is under test is the resumption between workflow steps, not the size of a document: small
// steps (10 pages, 50 chunks; 25 and 200 by default) give 15 reading and 20 indexing steps to
// stop in, where 500 pages at the default step sizes gave 20 and 17 and took three times as long.

const PAGES = 150;
const WORKER_VARS = {
  // Revive a stalled ingest 5 s after its last progress (60 s by default).
  KBCHAT_VAR_INGEST_STALE_SECONDS: '5',
  KBCHAT_VAR_INGEST_PAGES_PER_STEP: '10',
  KBCHAT_VAR_INGEST_CHUNKS_PER_STEP: '50',
};

/** What a clean run makes of the document: the pipeline's own extraction and chunking. */
async function cleanRunChunks(bytes: Uint8Array): Promise<number> {
  const { pages } = await extractPdfText(bytes, { maxPages: PAGES });
  return chunkPages(pages, { chunkSize: 500, overlap: 100 }).length;
}

/** One statement on the stack's database (its front listens on loopback). */
async function queryDatabase<T>(dataDir: string, text: string, values: unknown[]): Promise<T[]> {
  const { url } = await devDatabaseSettings(dataDir);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

type Progress = {
  id: string;
  status: string;
  pages: number;
  pages_done: number;
  chunks: number;
  chunks_done: number;
};

async function progressOf(base: string, token: string, id: string): Promise<Progress> {
  const res = await fetch(`${base}/moduleknowledge/file_status?id=${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`file_status: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Progress }).data;
}

async function until(
  base: string,
  token: string,
  id: string,
  done: (p: Progress) => boolean,
  ms: number,
): Promise<Progress> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const progress = await progressOf(base, token, id);
    if (done(progress)) return progress;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no progress of ${id} in ${ms} ms`);
}

describe.each([
  ['SIGINT', 'while its pages are read', (p: Progress) => p.pages_done > 0 && p.pages_done < PAGES],
  [
    'SIGTERM',
    'while its pages are read',
    (p: Progress) => p.pages_done > 0 && p.pages_done < PAGES,
  ],
  [
    'SIGKILL',
    'while its chunks are indexed',
    (p: Progress) => p.chunks_done > 0 && p.chunks_done < p.chunks,
  ],
] as const)('npm run dev stopped with %s %s', (signal, _when, stopWhen) => {
  it(`resumes the ${PAGES}-page ingest and finishes it with exactly the chunks a clean run makes`, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `kbchat-resume-${signal}-`));
    folders.push(dataDir);
    let stack: DevStack = await launchDev({ dataDir, env: WORKER_VARS });
    try {
      const token = await login(stack.baseUrl, 'admin', 'admin-password');
      const pdf = makeManyPagesPdf(PAGES);
      const expected = await cleanRunChunks(pdf);
      const form = new FormData();
      form.append('file', new File([pdf], 'register.pdf'));
      const res = await fetch(`${stack.baseUrl}/moduleknowledge/upload?async=true`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      expect(res.status).toBe(202);
      const { id } = ((await res.json()) as { data: { id: string } }).data;
      const before = await until(stack.baseUrl, token, id, stopWhen, 240_000);

      await stack.stop(signal);
      stack = await launchDev({ dataDir, env: WORKER_VARS });
      // The stopped stack's workers are not bound to: knowledge reaches the new reader at once.
      expect(await readFile(stack.logFile, 'utf8')).not.toContain('reader_unavailable');
      const again = await login(stack.baseUrl, 'admin', 'admin-password');
      const ready = await until(stack.baseUrl, again, id, (p) => p.status === 'ready', 300_000);
      expect(ready.pages).toBe(PAGES);
      expect(ready.pages_done).toBe(PAGES);
      expect(ready.chunks).toBe(expected);
      expect(ready.chunks_done).toBe(expected);
      if (before.chunks > 0) expect(before.chunks).toBe(expected);

      // What is stored: each chunk index once, 0 … n−1, and every page's text.
      const [stored] = await queryDatabase<{
        chunks: number;
        indexes: number;
        lowest: number;
        highest: number;
        pages: number;
        layouts: number;
      }>(
        dataDir,
        `select (select count(*)::int from chunks where file_id = $1) as chunks,
                (select count(distinct index)::int from chunks where file_id = $1) as indexes,
                (select min(index)::int from chunks where file_id = $1) as lowest,
                (select max(index)::int from chunks where file_id = $1) as highest,
                (select count(*)::int from file_pages where file_id = $1) as pages,
                (select count(*)::int from page_layouts where file_id = $1) as layouts`,
        [id],
      );
      expect(stored).toEqual({
        chunks: expected,
        indexes: expected,
        lowest: 0,
        highest: expected - 1,
        pages: PAGES,
        layouts: 0,
      });
    } finally {
      await stack.stop();
    }
  });
});
