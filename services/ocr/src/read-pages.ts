/**
 * The service's core: render pages `first..last` of a PDF one after another and read each with
 * the OCR engine. Boxes are converted from image pixels to page points (origin top-left, y
 * down, display orientation).
 */
import { isBlankPage } from './blank-page.ts';
import { PageOutOfRangeError } from './errors.ts';
import type { Engine, RecognisedLine } from './recognise.ts';
import { openPdf, type RenderedPage } from './render-page.ts';
import type { Settings } from './settings.ts';
import type { OcrLine, OcrPage } from '../../../shared/contracts/ocr.ts';

// The wire format, declared once for the service and its clients. A type-only import: Node
// erases it, so the container needs nothing outside services/ocr at run time.
export type { OcrLine, OcrPage } from '../../../shared/contracts/ocr.ts';

export interface PageTimings {
  page: number;
  dpi: number;
  pixels: number;
  boxes: number;
  lines: number;
  renderMs: number;
  detectMs: number;
  recogniseMs: number;
}

export type ReadSettings = Pick<
  Settings,
  | 'dpi'
  | 'maxPagePixels'
  | 'maxDetectPixels'
  | 'maxImagePixels'
  | 'maxLines'
  | 'pageTimeMs'
  | 'renderTimeMs'
>;

export interface ReadOptions {
  engine: Engine;
  settings: ReadSettings;
  /** Aborts between steps (the client went away). */
  signal?: AbortSignal;
  /** Told when a page starts and ends (for /health's `busy`). */
  onPageStart?(page: number): void;
  onPageEnd?(timings: PageTimings | undefined): void;
}

/**
 * Reads pages `first..last` (1-based, inclusive) of `pdf`. Throws PdfUnreadableError,
 * PageOutOfRangeError or PageTooComplexError; nothing else on account of the input. PDF.js
 * takes the bytes over: `pdf`'s buffer is detached afterwards.
 */
export async function readPages(
  pdf: Uint8Array,
  first: number,
  last: number,
  options: ReadOptions,
): Promise<OcrPage[]> {
  const { engine, settings, signal } = options;
  const document = await openPdf(pdf, { maxImagePixels: settings.maxImagePixels });
  try {
    if (last > document.pageCount) throw new PageOutOfRangeError(document.pageCount);
    const pages: OcrPage[] = [];
    for (let page = first; page <= last; page++) {
      signal?.throwIfAborted();
      options.onPageStart?.(page);
      let timings: PageTimings | undefined;
      try {
        const started = performance.now();
        const deadline = Date.now() + settings.pageTimeMs;
        const rendered = await document.render(page, {
          dpi: settings.dpi,
          maxPagePixels: settings.maxPagePixels,
          deadline: Math.min(deadline, Date.now() + settings.renderTimeMs),
          signal,
        });
        const renderMs = performance.now() - started;
        const text = isBlankPage(rendered.image)
          ? { lines: [], boxes: 0, detectMs: 0, recogniseMs: 0 }
          : await engine.read(rendered.image, {
              maxDetectPixels: settings.maxDetectPixels,
              maxLines: settings.maxLines,
              deadline,
              signal,
            });
        pages.push(toOcrPage(rendered, text.lines));
        timings = {
          page,
          dpi: rendered.dpi,
          pixels: rendered.image.width * rendered.image.height,
          boxes: text.boxes,
          lines: text.lines.length,
          renderMs: Math.round(renderMs),
          detectMs: text.detectMs,
          recogniseMs: text.recogniseMs,
        };
      } finally {
        options.onPageEnd?.(timings);
      }
    }
    return pages;
  } finally {
    await document.close().catch(() => {});
  }
}

function toOcrPage(rendered: RenderedPage, lines: RecognisedLine[]): OcrPage {
  // Image pixels → page points. The image's size was rounded down from the viewport's, so the
  // scale is taken from the page size rather than the dpi, to keep boxes inside the page.
  const sx = rendered.width / rendered.image.width;
  const sy = rendered.height / rendered.image.height;
  const ocrLines = lines.map((line): OcrLine => ({
    text: line.text,
    confidence: round(line.confidence, 4),
    box: [
      round(line.box[0] * sx, 2),
      round(line.box[1] * sy, 2),
      round(line.box[2] * sx, 2),
      round(line.box[3] * sy, 2),
    ],
  }));
  let characters = 0;
  let weighted = 0;
  for (const line of lines) {
    const length = [...line.text].length;
    characters += length;
    weighted += line.confidence * length;
  }
  return {
    page: rendered.page,
    width: round(rendered.width, 2),
    height: round(rendered.height, 2),
    dpi: rendered.dpi,
    lines: ocrLines,
    confidence: characters === 0 ? 0 : round(weighted / characters, 4),
  };
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
