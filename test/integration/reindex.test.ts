import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { swapReembeddings } from '../../workers/knowledge/src/store/reindex';
import { call, createUser, tokenFor, type TestUser } from '../helpers/auth';
import { queryRows, withDb } from '../helpers/database';

// The embedding model is part of the data: chunks another model made are reported, found by
// keyword search only, and re-indexed by a workflow that swaps each file's vectors at once.

/** The embedding model the test stack is configured with (knowledge's wrangler.toml). */
const MODEL = 'text-embedding-3-small@1536';
const OLD = 'old-model@1536';

interface Job {
  id: string;
  collection_id: string | null;
  model: string;
  status: 'running' | 'done' | 'failed';
  files: number;
  files_done: number;
  chunks: number;
  chunks_done: number;
  error: { code: string; message: string } | null;
}

interface Status {
  collection_id: string;
  configured: string;
  models: { model: string | null; chunks: number }[];
  stale_chunks: number;
  job: Job | null;
}

let owner: TestUser;
let viewer: TestUser;
let ownerToken = '';
let viewerToken = '';
let collection = '';
let file = '';
let other = '';
const WORD = `Marbleteal${crypto.randomUUID().slice(0, 6)}`;
const PAGES = [
  `The ${WORD} ferry timetable changes on the first Monday of April; sailings leave every hour.`,
  'Season tickets for the harbour car park are sold at the ticket office beside the pier.',
  'Bicycles travel free on the ferry when there is room on the car deck at departure.',
];

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

async function upload(name: string, pages: string[]) {
  const form = new FormData();
  form.append('collection_id', collection);
  form.append('file', new File([makeTextPdf(pages)], name, { type: 'application/pdf' }));
  const res = await call('/moduleknowledge/upload', {
    method: 'POST',
    body: form,
    token: ownerToken,
  });
  return (await json<{ id: string }>(res)).id;
}

const status = (token: string) =>
  call(`/moduleknowledge/embedding_status?collection_id=${collection}`, { token });
const start = (token: string, body: { collection_id?: string } = { collection_id: collection }) =>
  call('/moduleknowledge/reindex', { token, json: body });

async function found(mode: 'vector' | 'keyword', text: string) {
  const params = new URLSearchParams({ text, mode, file_id: file, top: '10' });
  const res = await call(`/moduleknowledge/query?${params}`, { token: viewerToken });
  return (await json<{ content: string }[]>(res)).filter((r) => r.content.includes(WORD));
}

const models = (fileId: string) =>
  queryRows<{ model: string | null; chunks: number }>(
    sql`select embedding_model as model, count(*)::int as chunks from chunks
        where file_id = ${fileId} group by 1`,
  );

async function until(id: string, done: (job: Job) => boolean): Promise<Job> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = await json<Job>(
      await call(`/moduleknowledge/reindex?id=${id}`, { token: ownerToken }),
    );
    if (done(job) || Date.now() > deadline) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  owner = await createUser();
  viewer = await createUser();
  ownerToken = await tokenFor(owner.username, owner.password);
  viewerToken = await tokenFor(viewer.username, viewer.password);
  collection = (
    await json<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: ownerToken,
        json: { name: '渡轮 ferries' },
      }),
    )
  ).id;
  await json(
    await call('/moduleknowledge/collection_member', {
      token: ownerToken,
      json: { collection_id: collection, username: viewer.username, role: 'viewer' },
    }),
  );
  file = await upload('ferry.pdf', PAGES);
  other = await upload('harbour.pdf', ['The harbour master answers the radio on channel 12.']);
  // Another model made these vectors (as after a change of EMBEDDING_MODEL).
  await withDb((db) =>
    db.execute(
      sql`update chunks set embedding_model = ${OLD} where file_id in (${file}, ${other})`,
    ),
  );
}, 60_000);

describe('a collection indexed by another model', () => {
  it('says so to its readers, and its chunks are found by keyword search only', async () => {
    const seen = await json<Status>(await status(viewerToken));
    expect(seen).toEqual({
      collection_id: collection,
      configured: MODEL,
      models: [{ model: OLD, chunks: 4 }],
      stale_chunks: 4,
      job: null,
    });
    expect(await found('vector', `${WORD} ferry timetable`)).toEqual([]);
    expect(await found('keyword', WORD)).toHaveLength(1);
  });

  it('is not re-indexed by a viewer (403), nor everything by a non-admin', async () => {
    expect((await start(viewerToken)).status).toBe(403);
    expect((await start(ownerToken, {})).status).toBe(403);
    const stranger = await createUser();
    const strangerToken = await tokenFor(stranger.username, stranger.password);
    expect((await start(strangerToken)).status).toBe(404);
  });

  it('is re-indexed by its owner: one job for two starts at once, then found again', async () => {
    const [first, second] = await Promise.all([start(ownerToken), start(ownerToken)]);
    const a = await json<Job>(first!);
    const b = await json<Job>(second!);
    expect(b.id).toBe(a.id);
    expect(a).toMatchObject({ collection_id: collection, model: MODEL, files: 2, chunks: 4 });

    // A viewer can neither read the job, nor see it in the status.
    expect((await call(`/moduleknowledge/reindex?id=${a.id}`, { token: viewerToken })).status).toBe(
      404,
    );
    const job = await until(a.id, (j) => j.status !== 'running');
    expect(job).toMatchObject({ status: 'done', files_done: 2, chunks_done: 4, error: null });

    expect(await models(file)).toEqual([{ model: MODEL, chunks: 3 }]);
    expect(await models(other)).toEqual([{ model: MODEL, chunks: 1 }]);
    const [{ left }] = (await queryRows<{ left: number }>(
      sql`select count(*)::int as left from chunk_reembeddings where file_id in (${file}, ${other})`,
    )) as [{ left: number }];
    expect(left).toBe(0);
    expect(await found('vector', `${WORD} ferry timetable`)).toHaveLength(1);

    const after = await json<Status>(await status(ownerToken));
    expect(after).toMatchObject({ stale_chunks: 0, models: [{ model: MODEL, chunks: 4 }] });
    expect(after.job).toMatchObject({ id: a.id, status: 'done' });
    expect((await json<Status>(await status(viewerToken))).job).toBeNull();

    // Nothing left to do: a job that is done at once, with nothing in it.
    const idle = await json<Job>(await start(ownerToken));
    expect(idle).toMatchObject({ status: 'done', files: 0, chunks: 0, chunks_done: 0 });
    expect(idle.id).not.toBe(a.id);
  });

  it('goes on with a job whose workflow stopped, skipping a file deleted meanwhile', async () => {
    await withDb((db) =>
      db.execute(sql`update chunks set embedding_model = ${OLD} where file_id = ${file}`),
    );
    const removed = await call(`/moduleknowledge/file?id=${other}`, {
      method: 'DELETE',
      token: ownerToken,
    });
    expect(removed.status, await removed.clone().text()).toBe(204);
    // A job planned before the file was deleted, whose workflow is gone (a restart).
    const [stopped] = await queryRows<{ id: string }>(sql`
      insert into reindex_jobs
        (collection_id, embedding_model, file_ids, files_done, chunks, workflow_id, created_by)
      values (${collection}, ${MODEL}, array[${other}, ${file}]::uuid[], 0, 4, 'reindex-gone',
              ${owner.id})
      returning id`);
    const job = await json<Job>(await start(ownerToken));
    expect(job).toMatchObject({ id: stopped!.id, status: 'running' });
    const done = await until(job.id, (j) => j.status !== 'running');
    expect(done).toMatchObject({ status: 'done', files: 2, files_done: 2, chunks_done: 3 });
    expect(await models(file)).toEqual([{ model: MODEL, chunks: 3 }]);
  });

  it('swaps no vector into a chunk whose text changed after it was embedded', async () => {
    await withDb((db) =>
      db.execute(sql`update chunks set embedding_model = ${OLD} where file_id = ${file}`),
    );
    const chunks = await queryRows<{ id: number; hash: string }>(sql`
      select id::int as id, left(md5(content), 16) as hash from chunks
      where file_id = ${file} order by index`);
    await withDb(async (db) => {
      await db.execute(sql`
        insert into chunk_reembeddings (chunk_id, file_id, embedding_model, embedding)
        select id, file_id, ${MODEL}, embedding from chunks where file_id = ${file}`);
      // An editor corrects the first chunk after its new vector was made.
      await db.execute(
        sql`update chunks set content = content || ' (corrected)' where id = ${chunks[0]!.id}`,
      );
      const { rows } = await db.execute<{ moved: number; cleared: number }>(
        swapReembeddings(
          file,
          MODEL,
          chunks.map((c) => [c.id, c.hash] as const),
        ),
      );
      expect(rows[0]).toEqual({ moved: 2, cleared: 3 });
    });
    const after = await queryRows<{ id: number; model: string }>(sql`
      select id::int as id, embedding_model as model from chunks
      where file_id = ${file} order by index`);
    expect(after.map((c) => c.model)).toEqual([OLD, MODEL, MODEL]);
  });
});
