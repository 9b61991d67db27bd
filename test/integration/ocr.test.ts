import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readSse } from '#shared/service';
import { accuracy, score, sum } from '../../bench/ocr/accuracy';
import { call, seededAdminToken } from '../helpers/auth';

// Scanned pages, a scanner's garbage text layer and a font map that writes GB2312 codes, through
// the whole ingest: the real OCR service the test stack starts (dev/stack/ocr.ts), the workflow's
// OCR steps, search and chat. The fixtures are drawn in Node (dev/fixtures/scanned-pdfs.ts) and
// provided by the global setup: workerd has no canvas.

const scans = inject('scans');
const bytesOf = (name: keyof typeof scans) =>
  Uint8Array.from(atob(scans[name].base64), (c) => c.charCodeAt(0));

interface FileInfo {
  id: string;
  status: string;
  pages: number;
  ocr?: { pages: number; pages_done: number; confidence: number | null };
  repaired_pages?: number;
  content?: string;
  error?: { code: string; message: string };
}
interface Match {
  id: number;
  file_id: string;
  page: number;
  content: string;
  text_source: string | null;
}

let token = '';
beforeAll(async () => {
  token = await seededAdminToken();
});

async function upload(name: keyof typeof scans): Promise<string> {
  const form = new FormData();
  form.append('file', new File([bytesOf(name)], `${name}.pdf`, { type: 'application/pdf' }));
  const res = await call('/moduleknowledge/upload', { token, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: { id: string } }>()).data.id;
}

async function fileWithContent(id: string): Promise<FileInfo> {
  const res = await call(`/moduleknowledge/list?file_id=${id}&with_content=true`, { token });
  expect(res.status).toBe(200);
  const [file] = (await res.json<{ data: FileInfo[] }>()).data;
  return file!;
}

async function query(q: string, fileId: string): Promise<Match[]> {
  const res = await call(`/moduleknowledge/query?text=${encodeURIComponent(q)}&file_id=${fileId}`, {
    token,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Match[] }>()).data;
}

/** Han characters and digits read right, in %, over the pages (bench/ocr/accuracy.ts). */
const hanAccuracy = (expected: readonly string[], pages: readonly string[]) =>
  accuracy(sum(expected.map((page, i) => score(page, pages[i] ?? '', 'hanDigits'))));

describe('a scanned PDF', () => {
  let id = '';
  let file: FileInfo;
  beforeAll(async () => {
    id = await upload('policy-scan-2');
    file = await fileWithContent(id);
  }, 180_000);

  it('becomes a ready file whose pages OCR read, at the accuracy target', () => {
    expect(file).toMatchObject({ status: 'ready', pages: 2, ocr: { pages: 2, pages_done: 2 } });
    expect(file.ocr!.confidence).toBeGreaterThan(0.8);
    const pages = file.content!.split('\f');
    expect(pages).toHaveLength(2);
    expect(hanAccuracy(scans['policy-scan-2'].expected, pages)).toBeGreaterThanOrEqual(98);
  });

  it('is found by its words, on the page that has them, marked as OCR', async () => {
    const second = scans['policy-scan-2'].expected[1]!;
    const phrase = second.replace(/\s+/g, '').slice(20, 34);
    const [best] = await query(phrase, id);
    expect(best).toMatchObject({ file_id: id, page: 2, text_source: 'ocr' });
  });

  it('has passages that stand where OCR read their lines', async () => {
    const second = scans['policy-scan-2'].expected[1]!;
    const [best] = await query(second.replace(/\s+/g, '').slice(20, 34), id);
    const res = await call(`/moduleknowledge/chunk?id=${best!.id}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    const { data } = await res.json<{
      data: { text_source: string; rects: number[][]; page_width: number; page_height: number };
    }>();
    expect(data.text_source).toBe('ocr');
    expect(data.rects.length).toBeGreaterThan(0);
    for (const [left, top, right, bottom] of data.rects) {
      expect(0 <= left! && left! < right! && right! <= data.page_width).toBe(true);
      expect(0 <= top! && top! < bottom! && bottom! <= data.page_height).toBe(true);
    }
  });

  it('answers a question from it, citing the page', async () => {
    const first = scans['policy-scan-2'].expected[0]!;
    const question = first.replace(/\s+/g, '').slice(40, 60);
    const res = await call('/modulechat/chat', {
      token,
      json: { prompt: question, file_id: [id] },
    });
    expect(res.status).toBe(200);
    let sources: Array<{ file_id: string; page: number; text_source?: string }> = [];
    for await (const { event, data } of readSse(res.body!)) {
      if (event === 'sources') sources = JSON.parse(data);
    }
    expect(sources.length).toBeGreaterThan(0);
    expect(sources[0]).toMatchObject({ file_id: id });
    expect([1, 2]).toContain(sources[0]!.page);
  });
});

describe("a scanner's searchable PDF whose text layer is private-use garbage", () => {
  it('is read by OCR instead of its text layer', async () => {
    const id = await upload('searchable-scan-garbage');
    const file = await fileWithContent(id);
    expect(file).toMatchObject({ status: 'ready', ocr: { pages: 2, pages_done: 2 } });
    expect(file.content).not.toMatch(/\p{Co}/u);
    const pages = file.content!.split('\f');
    expect(hanAccuracy(scans['searchable-scan-garbage'].expected, pages)).toBeGreaterThanOrEqual(
      98,
    );
  }, 180_000);
});

describe('a born-digital PDF whose font map writes GB2312 codes (ꎬ for ，)', () => {
  it('is repaired without OCR, every page, and says so', async () => {
    const id = await upload('policy-font-fault');
    const file = await fileWithContent(id);
    expect(file.status).toBe('ready');
    expect(file.ocr).toBeUndefined();
    expect(file.repaired_pages).toBe(file.pages);
    expect(file.content).not.toMatch(/[\p{Script=Yi}\p{Co}]/u);
    expect(file.content).toContain('，');
    const [best] = await query('创业担保贷款', id);
    expect(best).toMatchObject({ text_source: 'repaired' });
  }, 60_000);
});

describe('a scanned page with a ruled table', () => {
  it('keeps the table as a Markdown table, its header row first', async () => {
    const id = await upload('table-scan');
    const file = await fileWithContent(id);
    expect(file).toMatchObject({ status: 'ready', ocr: { pages: 1, pages_done: 1 } });
    const lines = file.content!.split('\n');
    const header = lines.findIndex((line) =>
      /^\|\s*序号\s*\|\s*项目\s*\|\s*补贴标准\s*\|/.test(line),
    );
    expect(header, file.content).toBeGreaterThanOrEqual(0);
    expect(lines[header + 1]).toMatch(/^\|(\s*-+\s*\|)+$/);
    // A row keeps its cells apart: the item and its subsidy in their own columns.
    expect(file.content).toMatch(/\|\s*一次性创业补贴\s*\|\s*每户5000元\s*\|/);
  }, 120_000);
});
