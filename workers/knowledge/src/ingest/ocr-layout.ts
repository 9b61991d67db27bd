import type { OcrPage } from '#shared/contracts/ocr';
import { layoutPage, type PageLayout, type TextRun } from './pdf-layout.ts';

export type { OcrLine, OcrPage } from '#shared/contracts/ocr';

/** An OCR line box is the line's ink: about 1.25 times the type size, baseline at 80 % down. */
const BOX_PER_SIZE = 1.25;
const BASELINE_SHARE = 0.8;

/**
 * The page's layout from OCR lines (their boxes already in page points, see
 * #shared/contracts/ocr: the service scales them from the rendered image), through the same layout rules as a text layer's runs (one
 * run per line box): paragraphs, columns, headers and footers, and tables are found the same
 * way for a scan as for a born-digital page.
 */
export function ocrPageLayout(ocr: OcrPage): PageLayout {
  const runs: TextRun[] = [];
  for (const line of ocr.lines) {
    const [x0, y0, x1, y1] = line.box;
    const height = y1 - y0;
    if (line.text.trim() === '' || !(height > 0) || !(x1 > x0)) continue;
    runs.push({
      text: documentNumbers(line.text),
      x: x0,
      baseline: y0 + height * BASELINE_SHARE,
      width: x1 - x0,
      size: height / BOX_PER_SIZE,
      // The line's box as read is its ink: the document viewer's highlight (line-box.ts).
      top: y0,
      bottom: y1,
    });
  }
  const layout = layoutPage(runs, { page: ocr.page, width: ocr.width, height: ocr.height });
  return { ...layout, source: { kind: 'ocr', confidence: roundTo(ocr.confidence, 3) } };
}

function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round((Number.isFinite(value) ? value : 0) * scale) / scale;
}

/**
 * The year of a Chinese document number in its hexagonal brackets, as GB/T 9704 prints it
 * (川办规〔2025〕6号): OCR reads 〔 〕 as [ ], ［ ］ or 【 】, and a search for the number as it is
 * written would then miss the document. Only a four-digit year between a Han character and a
 * number ending in 号 is mended.
 */
export function documentNumbers(text: string): string {
  return text.replace(
    /(\p{Script=Han})\s*[[［【〔(（]\s*((?:19|20)\d{2})\s*[\]］】〕)）]\s*(\d{1,4}\s*号)/gu,
    '$1〔$2〕$3',
  );
}
