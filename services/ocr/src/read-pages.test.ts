/**
 * readPages with the real engine in this process: the pieces the HTTP tests (server.test.ts)
 * do not reach — skewed scans, the unit of the boxes at another dpi, the time budget, a client
 * going away.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostilePdfs } from '../../../dev/fixtures/hostile-pdfs.ts';
import { makeTextPdf } from '../../../dev/fixtures/pdf-builder.ts';
import { PageOutOfRangeError, PageTooComplexError, PdfUnreadableError } from './errors.ts';
import { readPages, type PageTimings, type ReadSettings } from './read-pages.ts';
import { loadEngine, readingOrder, type Engine } from './recognise.ts';
import { DEFAULTS } from './settings.ts';
import { drawTextJpeg, imagePdf, similarity } from './test-pdf.ts';

const SETTINGS: ReadSettings = { ...DEFAULTS };
const PAGE = { pageWidth: 432, pageHeight: 216 };
const IMAGE = { width: 1200, height: 600 };
const TEXT = [
  '第四条 出差人员应当按规定等级乘坐交通工具',
  '第五条 住宿费在标准限额之内凭发票据实报销',
];

let engine: Engine;
let scan: Uint8Array;

beforeAll(async () => {
  engine = await loadEngine();
  const drawn = await drawTextJpeg(TEXT, { ...IMAGE, left: 80, top: 150, fontPx: 40 });
  scan = imagePdf([{ ...drawn, ...PAGE }]);
}, 60_000);

describe('readPages', () => {
  it('reads a scan turned by 3 degrees, as a scanner feeds a page askew', async () => {
    const drawn = await drawTextJpeg(TEXT, { ...IMAGE, left: 80, top: 150, fontPx: 40 });
    const canvas = createCanvas(IMAGE.width, IMAGE.height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, IMAGE.width, IMAGE.height);
    context.translate(IMAGE.width / 2, IMAGE.height / 2);
    context.rotate((3 * Math.PI) / 180);
    context.translate(-IMAGE.width / 2, -IMAGE.height / 2);
    context.drawImage(await loadImage(Buffer.from(drawn.jpeg)), 0, 0);
    const jpeg = new Uint8Array(await canvas.encode('jpeg', 85));
    const [page] = await readPages(imagePdf([{ jpeg, ...IMAGE, ...PAGE }]), 1, 1, {
      engine,
      settings: SETTINGS,
    });
    const text = page!.lines.map((line) => line.text);
    expect(text).toHaveLength(2);
    text.forEach((line, index) => {
      expect(similarity(line, TEXT[index]!), line).toBeGreaterThanOrEqual(0.95);
    });
  });

  it('gives boxes in page points whatever the dpi, and the confidence weighted by characters', async () => {
    const timings: (PageTimings | undefined)[] = [];
    const started: number[] = [];
    const at200 = await readPages(scan.slice(), 1, 1, {
      engine,
      settings: SETTINGS,
      onPageStart: (page) => started.push(page),
      onPageEnd: (page) => timings.push(page),
    });
    const at150 = await readPages(scan.slice(), 1, 1, {
      engine,
      settings: { ...SETTINGS, dpi: 150 },
    });
    expect(at200[0]!.dpi).toBe(200);
    expect(at150[0]!.dpi).toBe(150);
    expect(at150[0]!.lines).toHaveLength(2);
    at150[0]!.lines.forEach((line, index) => {
      const other = at200[0]!.lines[index]!;
      line.box.forEach((value, i) => expect(Math.abs(value - other.box[i]!)).toBeLessThan(3));
    });
    const { lines, confidence } = at200[0]!;
    const characters = lines.reduce((sum, line) => sum + [...line.text].length, 0);
    const weighted = lines.reduce((sum, line) => sum + line.confidence * [...line.text].length, 0);
    expect(confidence).toBeCloseTo(weighted / characters, 3);
    expect(started).toEqual([1]);
    expect(timings).toEqual([
      expect.objectContaining({ page: 1, dpi: 200, pixels: 1200 * 600, boxes: 2, lines: 2 }),
    ]);
  });

  it('answers a blank page with no lines and confidence 0, without running detection', async () => {
    const blank = makeTextPdf([''], { pageWidth: 432, pageHeight: 216 });
    const timings: (PageTimings | undefined)[] = [];
    const [page] = await readPages(blank, 1, 1, {
      engine,
      settings: SETTINGS,
      onPageEnd: (t) => timings.push(t),
    });
    expect(page).toMatchObject({ page: 1, lines: [], confidence: 0 });
    expect(timings).toEqual([expect.objectContaining({ boxes: 0, detectMs: 0 })]);
    // A page with a few characters of ink is read.
    const [scanned] = await readPages(scan.slice(), 1, 1, {
      engine,
      settings: SETTINGS,
      onPageEnd: (t) => timings.push(t),
    });
    expect(scanned!.lines.length).toBe(2);
    expect(timings[1]!.detectMs).toBeGreaterThan(0);
  });

  it('gives up a page past its time budget', async () => {
    await expect(
      readPages(scan.slice(), 1, 1, { engine, settings: { ...SETTINGS, pageTimeMs: 1 } }),
    ).rejects.toBeInstanceOf(PageTooComplexError);
  });

  it('gives up a page whose drawing fans out at its render budget, whatever is left', async () => {
    const corpus = await hostilePdfs({ oversize: false, bombMiB: 1 });
    const laughs = corpus.find((file) => file.name === 'xobject-laughs-9')!;
    const started = Date.now();
    await expect(
      readPages(laughs.bytes, 1, 1, { engine, settings: { ...SETTINGS, renderTimeMs: 2_000 } }),
    ).rejects.toBeInstanceOf(PageTooComplexError);
    // A billion paints, stopped near the budget rather than at the page's 60 s.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('stops when the client goes away', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(
      readPages(scan.slice(), 1, 1, { engine, settings: SETTINGS, signal: controller.signal }),
    ).rejects.toThrow('gone');
  });

  it('refuses pages past the end before reading any, and what PDF.js cannot open', async () => {
    const read: number[] = [];
    const outcome = readPages(makeTextPdf(['One', 'Two']), 1, 3, {
      engine,
      settings: SETTINGS,
      onPageStart: (page) => read.push(page),
    });
    await expect(outcome).rejects.toBeInstanceOf(PageOutOfRangeError);
    expect(read).toEqual([]);
    await expect(
      readPages(new TextEncoder().encode('%PDF-1.4 broken'), 1, 1, { engine, settings: SETTINGS }),
    ).rejects.toBeInstanceOf(PdfUnreadableError);
  });
});

describe('readingOrder', () => {
  const line = (text: string, box: [number, number, number, number]) => ({ text, box });

  it('goes top to bottom, and left to right along a row', () => {
    const ordered = readingOrder([
      line('right 2', [300, 52, 400, 70]),
      line('left 1', [10, 10, 100, 30]),
      line('left 2', [10, 50, 100, 70]),
      line('right 1', [300, 12, 400, 31]),
      line('footer', [10, 200, 400, 215]),
    ]);
    expect(ordered.map((l) => l.text)).toEqual([
      'left 1',
      'right 1',
      'left 2',
      'right 2',
      'footer',
    ]);
  });

  it('keeps a row together when its lines sit a little higher or lower (a skewed scan)', () => {
    const ordered = readingOrder([
      line('b', [300, 16, 400, 36]),
      line('a', [10, 10, 100, 30]),
      line('c', [10, 40, 100, 60]),
    ]);
    expect(ordered.map((l) => l.text)).toEqual(['a', 'b', 'c']);
  });
});
