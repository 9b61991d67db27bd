import { describe, expect, it } from 'vitest';
import { makeEncryptedPdf, makeTextPdf } from '../../../dev/fixtures/pdf-builder.ts';
import { PageTooComplexError, PdfUnreadableError } from './errors.ts';
import { fitDpi, openPdf, type PageImage } from './render-page.ts';
import { drawTextJpeg, imagePdf, vectorPdf, withDeclaredSize } from './test-pdf.ts';

const LIMITS = { maxImagePixels: 40_000_000 };
const far = () => Date.now() + 60_000;

/** Share of pixels darker than mid-grey. */
function ink(image: PageImage): number {
  let dark = 0;
  for (let i = 0; i < image.data.length; i += 4) if (image.data[i]! < 128) dark++;
  return dark / (image.width * image.height);
}

describe('fitDpi', () => {
  it('keeps the dpi when the page fits, lowers it to fit when not', () => {
    expect(fitDpi(595, 842, 200, 12_000_000)).toBe(200);
    const dpi = fitDpi(20_000, 20_000, 200, 12_000_000);
    expect(dpi).toBeCloseTo(12.47, 1);
    expect(Math.ceil((20_000 * dpi) / 72) ** 2).toBeLessThanOrEqual(12_000_000);
    expect(fitDpi(1e9, 1e9, 200, 1_000_000)).toBeGreaterThan(0);
  });
});

describe('openPdf and render', () => {
  it('renders a page at the dpi asked, white with the text in ink', async () => {
    const pdf = await openPdf(makeTextPdf(['Hello, world.', 'Two']), LIMITS);
    expect(pdf.pageCount).toBe(2);
    const page = await pdf.render(1, { dpi: 100, maxPagePixels: 12_000_000, deadline: far() });
    await pdf.close();
    expect(page).toMatchObject({ page: 1, width: 595, height: 842, dpi: 100 });
    expect(page.image).toMatchObject({ width: 826, height: 1169 });
    expect(page.image.data.length).toBe(826 * 1169 * 4);
    expect(ink(page.image)).toBeGreaterThan(0.0001);
    expect(ink(page.image)).toBeLessThan(0.01);
  });

  it('gives the size in display orientation for a rotated page', async () => {
    const pdf = await openPdf(
      vectorPdf(300, 100, '0 0 0 rg 10 10 50 50 re f', { rotate: 90 }),
      LIMITS,
    );
    const page = await pdf.render(1, { dpi: 72, maxPagePixels: 12_000_000, deadline: far() });
    await pdf.close();
    expect(page).toMatchObject({ width: 100, height: 300 });
    expect(page.image).toMatchObject({ width: 100, height: 300 });
  });

  it('renders a huge page within the pixel limit', async () => {
    const pdf = await openPdf(vectorPdf(20_000, 20_000, '0 0 0 rg 0 0 10000 10000 re f'), LIMITS);
    const started = Date.now();
    const page = await pdf.render(1, { dpi: 200, maxPagePixels: 1_000_000, deadline: far() });
    await pdf.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(page.dpi).toBeLessThan(4);
    expect(page.image.width * page.image.height).toBeLessThanOrEqual(1_000_000);
    expect(ink(page.image)).toBeCloseTo(0.25, 1);
  });

  it('leaves out images larger than the limit, whatever their data says', async () => {
    const drawn = await drawTextJpeg(['第一条'], {
      width: 400,
      height: 200,
      fontPx: 60,
      top: 120,
      left: 20,
    });
    const honest = await openPdf(imagePdf([{ ...drawn, pageWidth: 288, pageHeight: 144 }]), LIMITS);
    const shown = await honest.render(1, { dpi: 100, maxPagePixels: 1e7, deadline: far() });
    await honest.close();
    expect(ink(shown.image)).toBeGreaterThan(0.01);

    const declared = imagePdf([
      { jpeg: drawn.jpeg, width: 60_000, height: 60_000, pageWidth: 288, pageHeight: 144 },
    ]);
    const pdf = await openPdf(declared, LIMITS);
    const page = await pdf.render(1, { dpi: 100, maxPagePixels: 1e7, deadline: far() });
    await pdf.close();
    expect(ink(page.image)).toBe(0);
  });

  it('survives a JPEG whose frame header declares 60,000 × 60,000 pixels', async () => {
    const drawn = await drawTextJpeg(['第一条'], { width: 400, height: 200 });
    const bomb = imagePdf([
      {
        jpeg: withDeclaredSize(drawn.jpeg, 60_000, 60_000),
        width: 400,
        height: 200,
        pageWidth: 288,
        pageHeight: 144,
      },
    ]);
    const pdf = await openPdf(bomb, LIMITS);
    const started = Date.now();
    const rss = process.memoryUsage().rss;
    const outcome = await pdf.render(1, { dpi: 100, maxPagePixels: 1e7, deadline: far() }).then(
      () => 'rendered',
      (error: unknown) => error,
    );
    await pdf.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(500 * 1024 * 1024);
    if (outcome !== 'rendered') expect(outcome).toBeInstanceOf(PdfUnreadableError);
  });

  it('gives up rendering at the deadline', async () => {
    // 200,000 small squares: seconds of drawing.
    const squares = Array.from({ length: 200_000 }, (_, i) => `${i % 500} ${i % 700} 1 1 re f`);
    const pdf = await openPdf(vectorPdf(595, 842, squares.join('\n')), LIMITS);
    const started = Date.now();
    const outcome = await pdf
      .render(1, { dpi: 200, maxPagePixels: 1e7, deadline: Date.now() + 100 })
      .then(
        () => 'rendered',
        (error: unknown) => error,
      );
    expect(outcome).toBeInstanceOf(PageTooComplexError);
    expect(Date.now() - started).toBeLessThan(5_000);
    const late = await pdf
      .render(1, { dpi: 200, maxPagePixels: 1e7, deadline: Date.now() - 1 })
      .then(
        () => 'rendered',
        (error: unknown) => error,
      );
    expect(late).toBeInstanceOf(PageTooComplexError);
    await pdf.close();
  });

  it('refuses what is not a PDF, and an encrypted PDF, as unreadable', async () => {
    const garbage = new TextEncoder().encode('%PDF-1.7\nnothing here');
    await expect(openPdf(garbage, LIMITS)).rejects.toBeInstanceOf(PdfUnreadableError);
    await expect(openPdf(makeEncryptedPdf(), LIMITS)).rejects.toThrow(/encrypted/);
  });
});
