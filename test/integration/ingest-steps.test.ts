import { env } from 'cloudflare:workers';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { createLogger } from '#shared/log/logger';
import { sql } from 'drizzle-orm';
import { chunkPages } from '../../workers/knowledge/src/ingest/chunker';
import { begin, composePdfText, planChunks } from '../../workers/knowledge/src/pipeline/steps';
import { ingestDb } from '#shared/db/request-db';
import { knowledgeConfig } from '../../workers/knowledge/src/config';
import * as schema from '../../workers/knowledge/src/db/schema';
import { insertPaced } from '../../workers/knowledge/src/pipeline/paced-inserts';
import {
  fileForIngest,
  setProgress,
  type NewChunk,
} from '../../workers/knowledge/src/store/ingest';
import { call, seededAdminToken } from '../helpers/auth';
import { queryRows } from '../helpers/database';

// A workflow step may run again after its work committed: the stack stopped after the step's
// batch and before the workflow engine recorded the step as done (seen in
// test/reliability/restart.test.ts). Every step must then come to the same outcome.

const stepContext = (vars: Record<string, string> = {}) => ({
  env: {
    ...inject('stack').workerEnv,
    ...vars,
    FILES: env.FILES,
    READER: env.READER,
  } as unknown as KnowledgeEnv,
  log: createLogger({ module: 'ingest-steps.test' }),
});

describe('an ingestion step run again after it finished', () => {
  it('composing the text again gives the same pages, not "no text"', async () => {
    const token = await seededAdminToken();
    const form = new FormData();
    const pages = [`Step replay ${crypto.randomUUID()} one.`, 'Second page of the replay.'];
    form.append('file', new File([makeTextPdf(pages)], 'replay.pdf', { type: 'application/pdf' }));
    const res = await call('/moduleknowledge/upload', { method: 'POST', body: form, token });
    expect(res.status, await res.clone().text()).toBe(200);
    const { id, chunks } = (await res.json<{ data: { id: string; chunks: number } }>()).data;

    // The layouts are gone (the step's batch cleared them) and the pages are stored.
    expect(await composePdfText(stepContext(), id)).toEqual({ pages: 2 });
    expect(await planChunks(stepContext(), id)).toMatchObject({ chunks });
    const status = await call(`/moduleknowledge/file_status?id=${id}`, { token });
    expect((await status.json<{ data: { status: string } }>()).data.status).toBe('ready');
    await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token });
  });
});

describe('chunk steps', () => {
  it('each reads only the pages of its chunks, and together store the whole file’s chunks', async () => {
    const token = await seededAdminToken();
    const tag = crypto.randomUUID().slice(0, 8);
    // 24 pages of 3 chunks each: the test stack's 40 chunks per step end mid-page.
    const pages = Array.from({ length: 24 }, (_, p) =>
      Array.from(
        { length: 20 },
        (_, s) => `Page ${p + 1} sentence ${s + 1} of the batch plan ${tag} says something.`,
      ).join(' '),
    );
    const form = new FormData();
    form.append('file', new File([makeTextPdf(pages)], 'batches.pdf', { type: 'application/pdf' }));
    const res = await call('/moduleknowledge/upload', { method: 'POST', body: form, token });
    expect(res.status, await res.clone().text()).toBe(200);
    const { id } = (await res.json<{ data: { id: string } }>()).data;

    const stored = await queryRows<{ index: number; page: number; content: string }>(
      sql`select index, page, content from chunks where file_id = ${id} order by index`,
    );
    const texts = await queryRows<{ page: number; text: string }>(
      sql`select page, text from file_pages where file_id = ${id} order by page`,
    );
    const whole = chunkPages(texts.map((t) => t.text));
    expect(whole.length).toBeGreaterThan(60);
    expect(stored).toEqual(
      whole.map((c) => ({ index: c.index, page: c.page, content: c.content })),
    );

    // As the stack's workers plan it (dev/test/workers.ts): 40 chunks per step.
    const { chunks, batches } = await planChunks(stepContext({ INGEST_CHUNKS_PER_STEP: '40' }), id);
    expect(chunks).toBe(whole.length);
    expect(batches.length).toBeGreaterThan(1);
    batches.forEach((batch, i) => {
      expect(batch.from).toBe(i === 0 ? 0 : batches[i - 1]!.to);
      const own = whole.slice(batch.from, batch.to);
      expect([batch.first, batch.last]).toEqual([own[0]!.page, own.at(-1)!.page]);
      expect(batch.firstIndex).toBe(whole.find((c) => c.page === batch.first)!.index);
    });
    expect(batches.at(-1)!.to).toBe(whole.length);
    expect(batches.some((batch) => batch.firstIndex < batch.from)).toBe(true);
    await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token });
  });
});

describe('the first step', () => {
  async function uploaded(pages: string[]) {
    const token = await seededAdminToken();
    const form = new FormData();
    form.append('file', new File([makeTextPdf(pages)], 'first.pdf', { type: 'application/pdf' }));
    const res = await call('/moduleknowledge/upload', { method: 'POST', body: form, token });
    expect(res.status, await res.clone().text()).toBe(200);
    const { id, chunks } = (await res.json<{ data: { id: string; chunks: number } }>()).data;
    return { id, token, chunks };
  }
  const layoutPages = (id: string) =>
    queryRows<{ page: number }>(
      sql`select page from page_layouts where file_id = ${id} order by page`,
    );

  it('reads a PDF of one batch whole, stores its text and plans its chunks', async () => {
    const tag = crypto.randomUUID();
    const { id, token, chunks } = await uploaded([`First step ${tag} one.`, 'Its second page.']);
    const before = await queryRows<{ page: number; text: string }>(
      sql`select page, text from file_pages where file_id = ${id} order by page`,
    );

    // Run again, as after a restart: the same plan and the same pages.
    const plan = await begin(stepContext(), id, 'replayed');
    expect(plan).toEqual({
      format: 'pdf',
      pages: 2,
      batches: [],
      textStored: true,
      chunkPlan: { chunks, batches: [{ from: 0, to: chunks, first: 1, last: 2, firstIndex: 0 }] },
    });
    expect(
      await queryRows(sql`select page, text from file_pages where file_id = ${id} order by page`),
    ).toEqual(before);
    expect(before[0]!.text).toContain(tag);
    expect(await layoutPages(id)).toEqual([]);
    await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token });
  });

  it('keeps the first batch of a longer PDF and plans the rest', async () => {
    const pages = Array.from(
      { length: 5 },
      (_, p) => `Longer ${crypto.randomUUID()} page ${p + 1}.`,
    );
    const { id, token } = await uploaded(pages);

    const plan = await begin(stepContext({ INGEST_PAGES_PER_STEP: '2' }), id, 'replayed');
    expect(plan).toEqual({
      format: 'pdf',
      pages: 5,
      batches: [
        { first: 3, last: 4 },
        { first: 5, last: 5 },
      ],
    });
    expect(await layoutPages(id)).toEqual([{ page: 1 }, { page: 2 }]);
    await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token });
  });

  it('plans a long text in a step of its own, not in the first one', async () => {
    const token = await seededAdminToken();
    const line = `A long plain text ${crypto.randomUUID()} keeps going with words.\n`;
    const text = line.repeat(Math.ceil(1_100_000 / line.length));
    const form = new FormData();
    form.append('file', new File([text], 'long.txt', { type: 'text/plain' }));
    const res = await call('/moduleknowledge/upload?async=true', {
      method: 'POST',
      body: form,
      token,
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const { id } = (await res.json<{ data: { id: string } }>()).data;
    try {
      const plan = await begin(stepContext(), id, 'replayed');
      expect(plan).toMatchObject({ format: 'text', batches: [], textStored: true });
      expect(plan.chunkPlan).toBeUndefined();
    } finally {
      await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token });
    }
  });
});

describe('a chunk step’s inserts', () => {
  // Inserting into the HNSW index holds the local database's one session: a step's chunks go
  // in transactions sized by the time each took (paced-inserts.ts), the last one with the
  // step's progress, so that nobody else waits behind a whole step.
  async function processingFileWithoutChunks() {
    const token = await seededAdminToken();
    const pages = Array.from(
      { length: 6 },
      (_, p) =>
        `Paced ${crypto.randomUUID()} page ${p + 1}. ${'A sentence that fills the page. '.repeat(40)}`,
    );
    const form = new FormData();
    form.append('file', new File([makeTextPdf(pages)], 'paced.pdf', { type: 'application/pdf' }));
    const res = await call('/moduleknowledge/upload', { method: 'POST', body: form, token });
    expect(res.status, await res.clone().text()).toBe(200);
    const { id } = (await res.json<{ data: { id: string } }>()).data;
    const rows = await queryRows<NewChunk & Record<string, unknown>>(
      sql`select index, page, content, embedding::text as embedding from chunks where file_id = ${id} order by index`,
    );
    await queryRows(sql`delete from chunks where file_id = ${id} returning id`);
    await queryRows(
      sql`update files set status = 'processing', chunks_done = 0 where id = ${id} returning id`,
    );
    const chunks = rows.map((row) => ({
      ...row,
      embedding: JSON.parse(row.embedding as unknown as string) as number[],
    }));
    return { id, token, chunks };
  }

  it.each([
    ['in transactions of about the hold time', 1, (n: number) => n > 2],
    ['all in one transaction with a hold of 0', 0, (n: number) => n === 1],
  ])('go %s; the last one makes the file ready with every chunk', async (_, holdMs, expected) => {
    const { id, token, chunks } = await processingFileWithoutChunks();
    expect(chunks.length).toBeGreaterThan(20);
    const kdb = ingestDb(knowledgeConfig(stepContext().env).database, schema, id);
    let transactions = 0;
    const counted = {
      ...kdb,
      batch: ((statements: never) => {
        transactions++;
        return kdb.batch(statements);
      }) as typeof kdb.batch,
    };
    const [file] = await kdb.run(fileForIngest(kdb.db, id));
    await insertPaced(
      counted,
      file!,
      chunks,
      setProgress(kdb.db, id, { status: 'ready', chunksDone: chunks.length }),
      holdMs,
    );
    expect(expected(transactions), `${transactions} transactions`).toBe(true);
    expect(
      await queryRows(sql`select index from chunks where file_id = ${id} order by index`),
    ).toEqual(chunks.map((chunk) => ({ index: chunk.index })));
    const status = await call(`/moduleknowledge/file_status?id=${id}`, { token });
    expect((await status.json<{ data: { status: string } }>()).data.status).toBe('ready');
    await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token });
  });
});
