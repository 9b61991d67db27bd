/**
 * The service as it runs: `node services/ocr/src/server.ts` in a process of its own (started as
 * the dev stack starts it), the real PP-OCRv4 models, PDFs made here.
 *
 * Every page but two is 432 × 216 points (1200 × 600 pixels at 200 dpi): ONNX Runtime's first
 * run at a new image size is the slow one, so the file mostly reuses one size.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEncryptedPdf, makeTextPdf } from '../../../dev/fixtures/pdf-builder.ts';
import { startOcr, type RunningOcr } from '../../../dev/stack/ocr.ts';
import { startServer, type OcrServer } from './server.ts';
import { DEFAULTS } from './settings.ts';
import type { Engine } from './recognise.ts';
import {
  drawJpeg,
  drawTextJpeg,
  imagePdf,
  noiseJpeg,
  similarity,
  vectorPdf,
  withDeclaredSize,
} from './test-pdf.ts';

const KEY = 'test-key-0123456789';
const MAX_BODY = 3_000_000;
const PAGE = { pageWidth: 432, pageHeight: 216 };
const IMAGE = { width: 1200, height: 600 };
const CHINESE = [
  '第一条 为加强市级机关差旅费管理，规范差旅费开支',
  '第二条 省外出差住宿费每人每天的限额为五百元',
  '第三条 本办法自发布之日起施行。',
];

interface OcrPage {
  page: number;
  width: number;
  height: number;
  dpi: number;
  lines: { text: string; confidence: number; box: [number, number, number, number] }[];
  confidence: number;
}

let ocr: RunningOcr;
let url: string;
const output = new PassThrough();
let log = '';
output.on('data', (chunk: Buffer) => (log += chunk.toString()));

beforeAll(async () => {
  ocr = await startOcr(
    {
      PATH: process.env.PATH,
      OCR_API_KEY: KEY,
      OCR_MAX_BODY_BYTES: String(MAX_BODY),
      OCR_MAX_PAGES: '3',
      OCR_QUEUE_LENGTH: '1',
      // A4 at 200 dpi (3.9 M pixels) would fit; the huge page is then cheaper to check.
      OCR_MAX_PAGE_PIXELS: '2000000',
      OCR_MAX_LINES: '6',
      OCR_WARM_UP: 'off',
    },
    { output },
  );
  url = ocr.baseUrl!;
}, 60_000);

afterAll(async () => {
  await ocr?.close();
});

function read(
  body: RequestInit['body'],
  query: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${url}/v1/read?${query}`, {
    method: 'POST',
    body,
    signal,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/pdf', ...headers },
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function readOk(pdf: Uint8Array, first = 1, last = first): Promise<OcrPage[]> {
  const response = await read(pdf, `first=${first}&last=${last}`);
  const body = (await response.json()) as { pages: OcrPage[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.pages;
}

async function expectError(response: Response, status: number, code: string): Promise<string> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(body.error.message).toMatch(/^[^\n]{5,300}$/);
  expect(body.error.message).not.toMatch(/\/(work|home|usr|tmp)\/|at .*\(|node_modules/);
  return body.error.message;
}

async function health(): Promise<{ ok: boolean; engine: string; busy: number; queued: number }> {
  return (await (await fetch(`${url}/health`)).json()) as never;
}

async function chinesePage(lines = CHINESE, fontPx = 40): Promise<Uint8Array> {
  const drawn = await drawTextJpeg(lines, {
    ...IMAGE,
    fontPx,
    left: 80,
    top: 120,
    lineGap: fontPx,
  });
  return imagePdf([{ ...drawn, ...PAGE }]);
}

describe('reading pages', () => {
  it('answers /health once the models are loaded', async () => {
    expect(await health()).toEqual({ ok: true, engine: 'PP-OCRv4', busy: 0, queued: 0 });
  });

  it('reads a scanned Chinese page: the text, boxes in page points, in reading order', async () => {
    const [page] = await readOk(await chinesePage());
    expect(page).toMatchObject({ page: 1, width: 432, height: 216, dpi: 200 });
    expect(page!.lines).toHaveLength(3);
    page!.lines.forEach((line, index) => {
      expect(similarity(line.text, CHINESE[index]!), line.text).toBeGreaterThanOrEqual(0.95);
      expect(line.confidence).toBeGreaterThan(0.8);
      expect(line.confidence).toBeLessThanOrEqual(1);
      const [x0, y0, x1, y1] = line.box;
      // Drawn from x = 80 px with baselines at 120, 200, 280 px; 72/200 points a pixel.
      expect(x0).toBeGreaterThan(20);
      expect(x0).toBeLessThan(35);
      const baseline = ((120 + index * 80) * 72) / 200;
      expect(y0).toBeLessThan(baseline);
      expect(y1).toBeGreaterThan(baseline - 5);
      expect(y1 - y0).toBeGreaterThan(10);
      expect(y1 - y0).toBeLessThan(25);
      expect(x1).toBeLessThanOrEqual(432);
    });
    // Small punctuation at a line's end is inside its box (recognise.ts, LINE_END_PAD).
    expect(page!.lines[2]!.text.endsWith('。')).toBe(true);
    const tops = page!.lines.map((line) => line.box[1]);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    expect(page!.confidence).toBeGreaterThan(0.8);
    expect(page!.confidence).toBeLessThanOrEqual(1);
  });

  it('reads a born-digital Latin page (standard Helvetica), and pages one after another', async () => {
    const text = ['Annual leave: 25 working days after ten years of service.', 'Page two.'];
    const pdf = makeTextPdf(text, { pageWidth: 432, pageHeight: 216, margin: 36 });
    const pages = await readOk(pdf, 1, 2);
    expect(pages.map((page) => page.page)).toEqual([1, 2]);
    pages.forEach((page, index) => {
      expect(page.lines.length, JSON.stringify(page)).toBeGreaterThanOrEqual(1);
      const read = page.lines.map((line) => line.text).join(' ');
      expect(similarity(read, text[index]!), read).toBeGreaterThanOrEqual(0.95);
    });
  });

  it('orders lines side by side left to right', async () => {
    const { jpeg } = await drawJpeg(
      [
        { text: '右栏第二行', x: 700, y: 300 },
        { text: '左栏第一行', x: 80, y: 150 },
        { text: '右栏第一行', x: 700, y: 150 },
        { text: '左栏第二行', x: 80, y: 300 },
      ],
      IMAGE,
    );
    const [page] = await readOk(imagePdf([{ jpeg, ...IMAGE, ...PAGE }]));
    expect(page!.lines.map((line) => line.text)).toEqual([
      '左栏第一行',
      '右栏第一行',
      '左栏第二行',
      '右栏第二行',
    ]);
  });
});

describe('refusing what it cannot or should not read', () => {
  it('401 without the right key', async () => {
    const pdf = await chinesePage();
    await expectError(
      await read(pdf, 'first=1&last=1', { Authorization: '' }),
      401,
      'unauthorized',
    );
    const wrong = await read(pdf, 'first=1&last=1', { Authorization: `Bearer ${KEY}x` });
    await expectError(wrong, 401, 'unauthorized');
  });

  it('400 for a missing or invalid page range, or more pages than allowed', async () => {
    const pdf = makeTextPdf(['One.']);
    for (const query of ['', 'first=1', 'first=0&last=1', 'first=2&last=1', 'first=a&last=b']) {
      await expectError(await read(pdf, query), 400, 'bad_request');
    }
    const message = await expectError(await read(pdf, 'first=1&last=4'), 400, 'bad_request');
    expect(message).toContain('3 pages');
  });

  it('415 for what is not a PDF', async () => {
    await expectError(await read('hello, world', 'first=1&last=1'), 415, 'not_pdf');
    const typed = await read(makeTextPdf(['One.']), 'first=1&last=1', {
      'Content-Type': 'text/plain',
    });
    await expectError(typed, 415, 'not_pdf');
  });

  it('422 pdf_unreadable for a damaged or an encrypted PDF', async () => {
    const corrupt = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >>\ngarbage');
    await expectError(await read(corrupt, 'first=1&last=1'), 422, 'pdf_unreadable');
    const message = await expectError(
      await read(makeEncryptedPdf(), 'first=1&last=1'),
      422,
      'pdf_unreadable',
    );
    expect(message).toMatch(/encrypted/);
  });

  it('422 page_out_of_range past the last page', async () => {
    const message = await expectError(
      await read(makeTextPdf(['One.', 'Two.']), 'first=2&last=3'),
      422,
      'page_out_of_range',
    );
    expect(message).toContain('2 pages');
  });

  it('413 for a body over the limit, declared or streamed, and stays up', async () => {
    const big = new Uint8Array(MAX_BODY + 1000).fill(32);
    big.set(new TextEncoder().encode('%PDF-1.4\n'));
    await expectError(await read(big, 'first=1&last=1'), 413, 'document_too_large');
    // Streamed without a length: refused once the limit is passed (the rest is discarded, so
    // that the client, still sending, gets the answer).
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4 * MAX_BODY) return controller.close();
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    await expectError(await read(stream, 'first=1&last=1'), 413, 'document_too_large');
    expect(log).toContain('413 document_too_large');
    expect((await health()).ok).toBe(true);
  });

  it('404 and 405 elsewhere', async () => {
    await expectError(await fetch(`${url}/v1/other`), 404, 'not_found');
    await expectError(await fetch(`${url}/v1/read?first=1&last=1`), 405, 'method_not_allowed');
  });
});

describe('bounded work on hostile pages', () => {
  it('renders a 20,000 × 20,000-point page at the dpi that fits the pixel limit', async () => {
    const pdf = vectorPdf(20_000, 20_000, '0 0 0 rg 1000 1000 8000 600 re f');
    const started = Date.now();
    const [page] = await readOk(pdf);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(page).toMatchObject({ width: 20_000, height: 20_000, lines: [], confidence: 0 });
    expect(page!.dpi).toBeLessThan(6);
    expect(Math.ceil((20_000 * page!.dpi) / 72) ** 2).toBeLessThanOrEqual(2_000_000);
  });

  it('leaves out an image that declares 60,000 × 60,000 pixels, then reads the next document', async () => {
    const drawn = await drawTextJpeg(['第一条'], IMAGE);
    const declared = imagePdf([{ jpeg: drawn.jpeg, width: 60_000, height: 60_000, ...PAGE }]);
    const [page] = await readOk(declared);
    expect(page!.lines).toEqual([]);
    // The same bomb inside the JPEG itself: its frame header says 60,000 × 60,000.
    const inside = imagePdf([
      { jpeg: withDeclaredSize(drawn.jpeg, 60_000, 60_000), ...IMAGE, ...PAGE },
    ]);
    const response = await read(inside, 'first=1&last=1');
    expect([200, 422]).toContain(response.status);
    if (response.status === 200) {
      const { pages } = (await response.json()) as { pages: OcrPage[] };
      expect(pages[0]!.lines.length).toBeLessThanOrEqual(1);
    } else {
      await expectError(response, 422, 'pdf_unreadable');
    }
    const [next] = await readOk(await chinesePage());
    expect(next!.lines).toHaveLength(3);
    expect(await health()).toMatchObject({ ok: true, busy: 0, queued: 0 });
  });

  it('answers a page of noise within its budget', async () => {
    const noise = await noiseJpeg(600, 3);
    const started = Date.now();
    const response = await read(
      imagePdf([{ ...noise, pageWidth: 216, pageHeight: 216 }]),
      'first=1&last=1',
    );
    expect([200, 422]).toContain(response.status);
    if (response.status === 422) await expectError(response, 422, 'page_too_complex');
    else await response.body?.cancel();
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('422 page_too_complex for more text lines than OCR_MAX_LINES (6)', async () => {
    const lines = Array.from({ length: 8 }, (_, i) => `第${i + 1}行文字`);
    const pdf = await chinesePage(lines, 20);
    const message = await expectError(await read(pdf, 'first=1&last=1'), 422, 'page_too_complex');
    expect(message).toContain('6');
  });
});

describe('one page at a time', () => {
  it('queues one request (OCR_QUEUE_LENGTH=1) and answers the next 503 busy', async () => {
    const page = await drawTextJpeg(CHINESE, { ...IMAGE, left: 80, top: 120 });
    const threePages = imagePdf([1, 2, 3].map(() => ({ ...page, ...PAGE })));
    const first = read(threePages, 'first=1&last=3');
    const pdf = await chinesePage();
    await expect.poll(async () => (await health()).busy, { timeout: 10_000 }).toBe(1);
    const second = read(pdf, 'first=1&last=1');
    await expect.poll(async () => (await health()).queued, { timeout: 10_000 }).toBe(1);
    const third = await read(pdf, 'first=1&last=1');
    await expectError(third, 503, 'busy');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(await health()).toMatchObject({ busy: 0, queued: 0 });
  });
});

describe('a client that goes away', () => {
  it('stops reading its pages, and the next request is read', async () => {
    const page = await drawTextJpeg(CHINESE, { ...IMAGE, left: 80, top: 120 });
    const threePages = imagePdf(Array.from({ length: 3 }, () => ({ ...page, ...PAGE })));
    const controller = new AbortController();
    const gone = read(threePages, 'first=1&last=3', {}, controller.signal).catch(() => 'aborted');
    await expect.poll(async () => (await health()).busy, { timeout: 10_000 }).toBe(1);
    const readSoFar = log.match(/read pages/g)?.length ?? 0;
    controller.abort();
    expect(await gone).toBe('aborted');
    await expect.poll(async () => (await health()).busy, { timeout: 10_000 }).toBe(0);
    // It stopped within the page it was reading: pages 2 and 3 were never read.
    await expect.poll(() => log.match(/read pages/g)?.length ?? 0).toBe(readSoFar + 1);
    expect(log.split('\n').findLast((line) => line.includes('read pages'))).not.toMatch(/p3/);
    const [next] = await readOk(await chinesePage());
    expect(next!.lines).toHaveLength(3);
  });
});

describe('an engine that fails', () => {
  let server: OcrServer;
  const errors: string[] = [];

  beforeAll(async () => {
    const failing: Engine = {
      read: () => Promise.reject(new Error('boom at /srv/secret/path.ts:12')),
      warmUp: async () => {},
    };
    server = await startServer(
      { ...DEFAULTS, port: 0, warmUp: false },
      { engine: failing, log: () => {}, logError: (line) => errors.push(line) },
    );
  });
  afterAll(() => server?.close());

  it('answers 500 internal without the details, logs them, and keeps answering', async () => {
    // Enough ink that the page is not taken for blank (blank pages never reach the engine).
    const pdf = makeTextPdf(['One line of text to read.\nAnother line of text.\nAnd a third.']);
    const response = await fetch(`${server.url}/v1/read?first=1&last=1`, {
      method: 'POST',
      body: pdf,
    });
    const message = await expectError(response, 500, 'internal');
    expect(message).not.toContain('boom');
    expect(errors.join('\n')).toContain('boom at /srv/secret/path.ts:12');
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
