import { sql } from 'drizzle-orm';
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../../dev/fixtures/docx-builder';
import { CHINESE_POLICY_PRINTED } from '../../dev/fixtures/printed-fixtures';
import { normaliseWhitespace } from '../../workers/knowledge/src/ingest/chunker';
import { call, createUser, tokenFor, type TestUser } from '../helpers/auth';
import { queryRows } from '../helpers/database';

// Where every passage stands, for the document viewer: a chunk's place in its page's text and,
// for PDFs, the rectangles of its lines (GetChunk), a page as indexed (GetPage), the original
// in byte ranges (GetDownload with Range), and the passage a retrieved page's citation opens
// (GetContext's chunk_id). All under the files' access rules: Bob is not in Alice's collection.

type Rect = [number, number, number, number];
interface Location {
  id: number;
  file_id: string;
  format: string;
  page: number;
  pages: number;
  text: string;
  section: string | null;
  text_source: string | null;
  start: number | null;
  end: number | null;
  rects: Rect[];
  page_width: number | null;
  page_height: number | null;
}
interface FilePage {
  page: number;
  pages: number;
  text: string;
  text_source: string | null;
  page_width: number | null;
  page_height: number | null;
}
interface StoredChunk extends Record<string, unknown> {
  id: number | string;
  page: number;
  index: number;
  content: string;
}

let alice: TestUser;
let aliceToken = '';
let bobToken = '';
let collection = '';
let pdfBytes: Uint8Array;
let pdfId = '';
let markdownId = '';
let docxId = '';

const MARKDOWN = `# Leave policy

## Annual leave

Every employee has 20 working days of annual leave a year, and 25 after ten years of service.
Leave not taken by March of the next year is lost, unless the manager agreed to carry it over.

## Sick leave

Sick leave is paid for up to 30 days a year; a doctor's note is needed from the fourth day on.
`;

async function data<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

async function upload(bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.append('collection_id', collection);
  form.append('file', new File([bytes], name));
  const file = await data<{ id: string; status: string }>(
    await call('/moduleknowledge/upload', { method: 'POST', body: form, token: aliceToken }),
  );
  expect(file.status).toBe('ready');
  return file.id;
}

const chunksOf = async (fileId: string) =>
  (
    await queryRows<StoredChunk>(
      sql`select id, page, index, content from chunks where file_id = ${fileId} order by index`,
    )
  ).map((row) => ({ ...row, id: Number(row.id) }));

const getChunk = (id: number, token = aliceToken) =>
  call(`/moduleknowledge/chunk?id=${id}`, { token });
const getPage = (fileId: string, page: number, token = aliceToken) =>
  call(`/moduleknowledge/page?file_id=${fileId}&page=${page}`, { token });

/** The chunk's own text: a chunk inside a table starts with the table's header, repeated. */
function ownText(location: Location, pageText: string): string {
  const [header, delimiter, ...rest] = location.text.split('\n');
  if (/^\|( --- \|)+$/u.test(delimiter ?? '') && location.start !== null) {
    const placed = normaliseWhitespace(pageText.slice(location.start, location.end ?? 0));
    if (!placed.startsWith(`${header}\n`)) return rest.join('\n');
  }
  return location.text;
}

beforeAll(async () => {
  alice = await createUser();
  const bob = await createUser();
  aliceToken = await tokenFor(alice.username, alice.password);
  bobToken = await tokenFor(bob.username, bob.password);
  collection = (
    await data<{ id: string }>(
      await call('/moduleknowledge/collection', {
        token: aliceToken,
        json: { name: `Viewer ${crypto.randomUUID().slice(0, 6)}` },
      }),
    )
  ).id;
  pdfBytes = CHINESE_POLICY_PRINTED.bytes();
  pdfId = await upload(pdfBytes, 'policy.pdf');
  markdownId = await upload(new TextEncoder().encode(MARKDOWN), 'leave.md');
  docxId = await upload(
    await makeDocx([
      ['Heading1', 'Travel expenses'],
      [null, 'Hotel costs are refunded up to 500 yuan a night outside the province.'],
      ['Heading1', 'Meals'],
      [null, 'Meals are covered by a daily allowance of 100 yuan; receipts are not needed.'],
    ]),
    'travel.docx',
  );
}, 180_000);

describe('a born-digital PDF’s passages', () => {
  it('stand in their page’s text, and on the page, in reading order', async () => {
    const chunks = await chunksOf(pdfId);
    expect(chunks.length).toBeGreaterThan(3);
    const pages = new Map<number, FilePage>();
    const firstTops = new Map<number, number[]>();
    for (const chunk of chunks) {
      const location = await data<Location>(await getChunk(chunk.id));
      expect(location).toMatchObject({
        id: chunk.id,
        file_id: pdfId,
        format: 'pdf',
        page: chunk.page,
        pages: CHINESE_POLICY_PRINTED.pages.length,
        text: chunk.content,
        text_source: 'text_layer',
      });
      if (!pages.has(chunk.page)) {
        pages.set(chunk.page, await data<FilePage>(await getPage(pdfId, chunk.page)));
      }
      const page = pages.get(chunk.page)!;
      expect(location.page_width).toBe(page.page_width);
      expect(location.page_height).toBe(page.page_height);
      expect(page.page_width).toBeGreaterThan(500);
      expect(page.page_height).toBeGreaterThan(700);

      // Its place: the page's text there is the passage.
      expect(location.start).not.toBeNull();
      const slice = page.text.slice(location.start!, location.end!);
      expect(normaliseWhitespace(slice)).toBe(ownText(location, page.text));

      // Its rectangles: on the page, one a line, top to bottom (a one-column page).
      expect(location.rects.length).toBeGreaterThan(0);
      for (const [left, top, right, bottom] of location.rects) {
        expect(0 <= left && left < right && right <= page.page_width!).toBe(true);
        expect(0 <= top && top < bottom && bottom <= page.page_height!).toBe(true);
      }
      const tops = location.rects.map((rect) => rect[1]);
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      // A passage of N characters on lines of about 28 characters takes about N / 28 lines.
      expect(location.rects.length).toBeLessThanOrEqual(Math.ceil(slice.length / 10) + 1);
      firstTops.set(chunk.page, [...(firstTops.get(chunk.page) ?? []), tops[0]!]);
    }
    // Later passages of a page stand lower on it.
    let later = 0;
    for (const tops of firstTops.values()) {
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      later += tops.length - 1;
    }
    expect(later).toBeGreaterThan(0);
  }, 120_000);

  it('stored before positions: no place and no rectangles, the rest as ever', async () => {
    const [chunk] = await chunksOf(pdfId);
    await queryRows(
      sql`update chunks set char_start = null, char_end = null where id = ${chunk!.id}`,
    );
    const location = await data<Location>(await getChunk(chunk!.id));
    expect(location).toMatchObject({ id: chunk!.id, text: chunk!.content, start: null, end: null });
    expect(location.rects).toEqual([]);
    expect(location.page_width).toBeGreaterThan(0);
  });
});

describe.each([
  ['Markdown', () => markdownId, 'markdown'],
  ['DOCX', () => docxId, 'docx'],
])('a %s file’s passages', (_, fileId, format) => {
  it('stand in their section’s text, without rectangles', async () => {
    const chunks = await chunksOf(fileId());
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      const location = await data<Location>(await getChunk(chunk.id));
      const page = await data<FilePage>(await getPage(fileId(), chunk.page));
      expect(location).toMatchObject({
        format,
        page: chunk.page,
        text: chunk.content,
        text_source: null,
        rects: [],
        page_width: null,
        page_height: null,
      });
      expect(page).toMatchObject({ page: chunk.page, page_width: null, text_source: null });
      expect(location.start).not.toBeNull();
      expect(normaliseWhitespace(page.text.slice(location.start!, location.end!))).toBe(
        chunk.content,
      );
    }
  });
});

describe('access', () => {
  it('answers 404 for another user’s file, an unknown passage and a page the file lacks', async () => {
    const [chunk] = await chunksOf(markdownId);
    expect((await getChunk(chunk!.id)).status).toBe(200);
    for (const res of [
      await getChunk(chunk!.id, bobToken),
      await getPage(markdownId, 1, bobToken),
      await getChunk(Number.MAX_SAFE_INTEGER),
      await getPage(pdfId, CHINESE_POLICY_PRINTED.pages.length + 1),
      await getPage(crypto.randomUUID(), 1),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('answers the same over RPC (chat reads cited passages so, as the caller)', async () => {
    const [chunk] = await chunksOf(markdownId);
    const rpc = (token: string) =>
      env.KNOWLEDGE_RPC.GetChunk({ id: chunk!.id }, { identity: { token } });
    expect(await rpc(aliceToken)).toMatchObject({ ok: true, data: { id: chunk!.id } });
    expect(await rpc(bobToken)).toMatchObject({
      ok: false,
      error: { status: 404, code: 'not_found' },
    });
  });
});

describe('the original in byte ranges', () => {
  const download = (range?: string, token = aliceToken) =>
    call(`/moduleknowledge/download?id=${pdfId}`, {
      token,
      ...(range ? { headers: { Range: range } } : {}),
    });

  it('answers a range with exactly those bytes', async () => {
    const res = await download('bytes=100-1123');
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe(`bytes 100-1123/${pdfBytes.length}`);
    expect(res.headers.get('Content-Length')).toBe('1024');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdfBytes.slice(100, 1124));
    const tail = await download('bytes=-16');
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(pdfBytes.slice(-16));
  });

  it('says it takes ranges on a whole answer, and refuses one outside the file', async () => {
    const whole = await download();
    expect(whole.status).toBe(200);
    expect(whole.headers.get('Accept-Ranges')).toBe('bytes');
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(pdfBytes);
    const outside = await download(`bytes=${pdfBytes.length}-`);
    expect(outside.status).toBe(416);
    expect(outside.headers.get('Content-Range')).toBe(`bytes */${pdfBytes.length}`);
    await outside.arrayBuffer();
    expect((await download('bytes=0-9', bobToken)).status).toBe(404);
  });
});

describe('GetContext', () => {
  it('names each retrieved page’s most similar passage; whole files name none', async () => {
    const context = (maxChars: number) =>
      call(
        `/moduleknowledge/context?text=${encodeURIComponent('创业担保贷款')}&file_id=${pdfId}&max_chars=${maxChars}&top=5`,
        { token: aliceToken },
      );
    const retrieved = await data<{
      mode: string;
      pages: { page: number; chunk_id: number | null }[];
    }>(await context(600));
    expect(retrieved.mode).toBe('retrieval');
    expect(retrieved.pages.length).toBeGreaterThan(0);
    for (const page of retrieved.pages) {
      expect(page.chunk_id).toEqual(expect.any(Number));
      const location = await data<Location>(await getChunk(page.chunk_id!));
      expect(location).toMatchObject({ file_id: pdfId, page: page.page });
    }
    const whole = await data<{ mode: string; pages: { chunk_id: number | null }[] }>(
      await context(2_000_000),
    );
    expect(whole.mode).toBe('full');
    expect(whole.pages.every((page) => page.chunk_id === null)).toBe(true);
  });
});
