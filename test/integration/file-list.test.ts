import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '#shared/log/logger';
import { indexChunks, planChunks } from '../../workers/knowledge/src/pipeline/steps';
import { call, createUser, tokenFor } from '../helpers/auth';
import { queryRows } from '../helpers/database';

// The files panel's list for hundreds of files (GetFiles): one collection's current files,
// searched by name, filtered, sorted, paged and counted per status; and a file's progress,
// which moves as its chunks are embedded and stored rather than a step at a time.

interface ListedFile {
  id: string;
  name: string;
  status: string;
  size: number;
  format: string;
  enabled: boolean;
  version: number;
  replaces: { id: string; name: string } | null;
}

interface FilesPage {
  items: ListedFile[];
  page: number;
  size: number;
  total: number;
  counts: Record<'queued' | 'processing' | 'ready' | 'failed', number>;
}

let ownerToken = '';
let viewerToken = '';
let outsiderToken = '';
let collectionId = '';
const ids = new Map<string, string>();

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

const files = (query: string, token = ownerToken) =>
  call(`/moduleknowledge/files?collection_id=${collectionId}${query}`, { token });

const page = async (query = '', token = ownerToken) => json<FilesPage>(await files(query, token));

const names = (answer: FilesPage) => answer.items.map((file) => file.name);

// Names chosen for sorting and for search: LIKE's wildcards must match only themselves.
const NAMES = [
  'alpha notes.txt',
  'Budget 2025.md',
  'budget_2026.txt',
  'charter 100%.txt',
  'delta plan.md',
  'Echo.txt',
];

// Markdown is told by its look (a heading), text by having none: as the names say.
const heading = (name: string) => (name.endsWith('.md') ? `# ${name}\n\n` : `${name} `);

async function upload(name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('collection_id', collectionId);
  form.append(
    'file',
    new File([text], name, { type: name.endsWith('.md') ? 'text/markdown' : 'text/plain' }),
  );
  const res = await call('/moduleknowledge/upload', {
    method: 'POST',
    body: form,
    token: ownerToken,
  });
  return (await json<{ id: string }>(res)).id;
}

beforeAll(async () => {
  const [owner, viewer, outsider] = await Promise.all([createUser(), createUser(), createUser()]);
  const tokens = await Promise.all(
    [owner, viewer, outsider].map((u) => tokenFor(u.username, u.password)),
  );
  [ownerToken, viewerToken, outsiderToken] = tokens as [string, string, string];
  collectionId = (
    await json<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: ownerToken,
        json: { name: `File list ${crypto.randomUUID().slice(0, 6)}` },
      }),
    )
  ).id;
  await json(
    await call('/moduleknowledge/collection_member', {
      token: ownerToken,
      json: { collection_id: collectionId, username: viewer.username, role: 'viewer' },
    }),
  );
  // Uploaded one after another (created_at ascending in NAMES order), sizes growing.
  for (const [i, name] of NAMES.entries()) {
    ids.set(
      name,
      await upload(name, `${heading(name)}${crypto.randomUUID()} ${'words '.repeat(i * 20)}`),
    );
  }
  // Statuses as the panel meets them; and an older version superseded by delta plan.md.
  await queryRows(sql`update files set status = 'failed' where id = ${ids.get('Echo.txt')!}`);
  await queryRows(
    sql`update files set status = 'processing' where id = ${ids.get('delta plan.md')!}`,
  );
  const old = await upload('delta plan (old).md', `# Old\n\nsuperseded ${crypto.randomUUID()}`);
  ids.set('old', old);
  await queryRows(
    sql`update files set superseded_by = ${ids.get('delta plan.md')!}, superseded_at = now()
        where id = ${old}`,
  );
}, 120_000);

describe('GET /moduleknowledge/files', () => {
  it('lists the current files newest first, with enabled, version and replaces', async () => {
    const answer = await page();
    expect(names(answer)).toEqual([...NAMES].reverse());
    expect(answer).toMatchObject({ page: 1, size: 50, total: NAMES.length });
    expect(answer.items[0]).toMatchObject({ enabled: true, version: 1, replaces: null });
  });

  it('counts files per status over the whole collection, whatever the filters', async () => {
    const expected = { queued: 0, processing: 1, ready: 4, failed: 1 };
    expect((await page()).counts).toEqual(expected);
    const filtered = await page('&status=failed&q=echo');
    expect(filtered.counts).toEqual(expected);
    expect(names(filtered)).toEqual(['Echo.txt']);
  });

  it('searches names case-insensitively; % and _ match only themselves', async () => {
    expect(names(await page('&q=BUDGET'))).toEqual(['budget_2026.txt', 'Budget 2025.md']);
    expect(names(await page('&q=t_2'))).toEqual(['budget_2026.txt']);
    expect(names(await page(`&q=${encodeURIComponent('100%')}`))).toEqual(['charter 100%.txt']);
    expect(names(await page(`&q=${encodeURIComponent('%')}`))).toEqual(['charter 100%.txt']);
    expect((await page('&q=nothing-like-this')).total).toBe(0);
  });

  it('finds a file by its 文号 or its title too, as staff cite documents', async () => {
    await queryRows(
      sql`update files set doc_number = '青政办发〔2024〕17号', title = '关于支持创业担保贷款的通知'
          where id = ${ids.get('Echo.txt')!}`,
    );
    expect(names(await page(`&q=${encodeURIComponent('青政办')}`))).toEqual(['Echo.txt']);
    expect(names(await page(`&q=${encodeURIComponent('〔2024〕17号')}`))).toEqual(['Echo.txt']);
    expect(names(await page(`&q=${encodeURIComponent('创业担保')}`))).toEqual(['Echo.txt']);
  });

  it('filters by status and format', async () => {
    expect(names(await page('&status=processing'))).toEqual(['delta plan.md']);
    expect(names(await page('&format=markdown&sort=name'))).toEqual([
      'Budget 2025.md',
      'delta plan.md',
    ]);
  });

  it('sorts by name, size and status, both ways', async () => {
    const byName = [...NAMES].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(names(await page('&sort=name'))).toEqual(byName);
    expect(names(await page('&sort=name&order=desc'))).toEqual([...byName].reverse());
    expect(names(await page('&sort=size'))).toEqual([...NAMES].reverse());
    expect(names(await page('&sort=size&order=asc'))).toEqual(NAMES);
    const byStatus = names(await page('&sort=status'));
    expect(byStatus[0]).toBe('delta plan.md');
    expect(byStatus.at(-1)).toBe('Echo.txt');
  });

  it('pages without overlap or gaps, ties broken by id', async () => {
    // Every file the same created_at: only the tiebreak orders them.
    await queryRows(
      sql`update files set created_at = '2026-01-01T00:00:00Z' where collection_id = ${collectionId}`,
    );
    const seen: string[] = [];
    for (let n = 1; n <= 3; n++) {
      const answer = await page(`&size=2&page=${n}`);
      expect(answer).toMatchObject({ page: n, size: 2, total: NAMES.length });
      seen.push(...answer.items.map((file) => file.id));
    }
    expect(new Set(seen).size).toBe(NAMES.length);
    expect((await page('&size=2&page=4')).items).toEqual([]);
    expect(seen).toEqual((await page('&size=50')).items.map((file) => file.id));
  });

  it('leaves superseded versions out, here and in the list', async () => {
    const listed = await json<ListedFile[]>(
      await call(`/moduleknowledge/list?collection_id=${collectionId}`, { token: ownerToken }),
    );
    expect(listed.map((file) => file.id)).not.toContain(ids.get('old'));
    expect(listed).toHaveLength(NAMES.length);
    expect(names(await page('&q=old'))).toEqual([]);
  });

  it('answers a reader; 404 for a collection the caller cannot read', async () => {
    expect((await page('', viewerToken)).total).toBe(NAMES.length);
    const res = await files('', outsiderToken);
    expect(res.status).toBe(404);
    const missing = await call(`/moduleknowledge/files?collection_id=${crypto.randomUUID()}`, {
      token: ownerToken,
    });
    expect(missing.status).toBe(404);
  });

  it('refuses a bad sort or page with a 400', async () => {
    expect((await files('&sort=colour')).status).toBe(400);
    expect((await files('&page=0')).status).toBe(400);
  });
});

describe('a file’s progress', () => {
  const stepContext = (vars: Record<string, string>) => ({
    env: {
      ...inject('stack').workerEnv,
      ...vars,
      FILES: env.FILES,
      READER: env.READER,
    } as unknown as KnowledgeEnv,
    log: createLogger({ module: 'file-list.test' }),
  });

  it('counts chunks as they are embedded and stored, within a step', async () => {
    const paragraphs = Array.from(
      { length: 150 },
      (_, i) =>
        `Paragraph ${i + 1} ${crypto.randomUUID()}. ${'Filler words for a chunk. '.repeat(16)}`,
    );
    const id = await upload('progress.txt', paragraphs.join('\n\n'));
    // The stored file, back to the moment before its chunks were stored.
    await queryRows(sql`delete from chunks where file_id = ${id} returning id`);
    await queryRows(
      sql`update files set status = 'processing', chunks_done = 0 where id = ${id} returning id`,
    );
    // One step for every chunk, as production's 200 per step is for most files.
    const ctx = stepContext({ INGEST_CHUNKS_PER_STEP: '1000', INGEST_INSERT_HOLD_MS: '0' });
    const { chunks, batches } = await planChunks(ctx, id);
    expect(chunks).toBeGreaterThan(120);
    expect(batches).toHaveLength(1);
    let done = false;
    const step = indexChunks(ctx, id, batches[0]!, { last: true }).finally(() => (done = true));
    const seen: number[] = [];
    while (!done) {
      const [row] = await queryRows<{ chunks_done: number; status: string }>(
        sql`select chunks_done, status from files where id = ${id}`,
      );
      if (row!.status !== 'ready' && seen.at(-1) !== row!.chunks_done) seen.push(row!.chunks_done);
    }
    await step;
    // Before: 0 until the whole step was stored. Now every 50 chunks, and never backwards.
    expect(
      seen.filter((n) => n > 0 && n < chunks),
      `seen ${seen.join(', ')}`,
    ).not.toEqual([]);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const [row] = await queryRows<{ chunks_done: number; status: string; stored: number }>(
      sql`select chunks_done, status, (select count(*)::int from chunks where file_id = ${id}) as stored
          from files where id = ${id}`,
    );
    expect(row).toEqual({ chunks_done: chunks, status: 'ready', stored: chunks });
  });
});
