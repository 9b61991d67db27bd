/**
 * Opens a PDF with the PDF.js that unpdf bundles (patched by dev/patch-pdfjs.mjs when installed
 * through the root package) and renders its pages to RGBA pixels with @napi-rs/canvas.
 *
 * Bounded work: a page is rendered at `dpi` unless its rendering would have more than
 * `maxPagePixels` pixels, then at the lower dpi that fits; images inside the PDF with more than
 * `maxImagePixels` pixels (as their dictionary declares them) are left out rather than decoded.
 */
import { createIsomorphicCanvasFactory, getResolvedPDFJS } from 'unpdf';
import { PageTooComplexError, PdfUnreadableError } from './errors.ts';

export interface RenderOptions {
  dpi: number;
  maxPagePixels: number;
  /** Date.now() after which rendering is cancelled (PageTooComplexError). */
  deadline: number;
  signal?: AbortSignal;
}

export interface PageImage {
  /** RGBA, 4 bytes a pixel, row after row; opaque (pages are painted on white). */
  data: Uint8Array;
  width: number;
  height: number;
}

export interface RenderedPage {
  /** 1-based page number. */
  page: number;
  /** Page size in PDF points at scale 1, in display orientation (/Rotate applied). */
  width: number;
  height: number;
  /** The resolution used: pixels per inch, i.e. pixels per 72 points. */
  dpi: number;
  image: PageImage;
}

export interface OpenedPdf {
  pageCount: number;
  render(pageNumber: number, options: RenderOptions): Promise<RenderedPage>;
  close(): Promise<void>;
}

const canvasImport = () => import('@napi-rs/canvas');

/** Opens `data` (the whole file; PDF.js may take ownership of the bytes). */
export async function openPdf(
  data: Uint8Array,
  options: { maxImagePixels: number },
): Promise<OpenedPdf> {
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
  const pdfjs = await getResolvedPDFJS();
  const task = pdfjs.getDocument({
    data,
    CanvasFactory,
    maxImageSize: options.maxImagePixels,
    // This PDF.js compiles PostScript functions without eval; the option keeps it that way if
    // an older build is ever bundled.
    isEvalSupported: false,
    // Node has no FontFace: glyphs are drawn as paths from the embedded font programs.
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    // Errors only: a hostile PDF must not fill the log with PDF.js warnings.
    verbosity: 0,
  } as Parameters<typeof pdfjs.getDocument>[0]);
  // The page being rendered gives the meter its deadline; none while the document opens.
  const clock = { deadline: Infinity };
  const unregister = registerMeter(task.docId, {
    charge: () => Date.now() <= clock.deadline,
  });
  let pdf: Awaited<typeof task.promise>;
  try {
    pdf = await task.promise;
  } catch (error) {
    unregister();
    await task.destroy().catch(() => {});
    throw new PdfUnreadableError(describeOpenError(error), { cause: error });
  }

  // A page whose rendering was cancelled or failed: PDF.js stops reading its operator list 100 ms
  // later. Destroyed before that, the document leaves a promise rejected that nobody handles
  // ("Page was destroyed"); close() waits until then.
  let settled = 0;

  return {
    pageCount: pdf.numPages,
    async render(pageNumber, { dpi, maxPagePixels, deadline, signal }) {
      let page;
      try {
        page = await pdf.getPage(pageNumber);
      } catch (error) {
        throw new PdfUnreadableError(`Page ${pageNumber} of the PDF cannot be read.`, {
          cause: error,
        });
      }
      if (Date.now() >= deadline) {
        page.cleanup();
        throw new PageTooComplexError(`Page ${pageNumber} ran out of its time budget.`);
      }
      clock.deadline = deadline;
      const size = page.getViewport({ scale: 1 });
      const usedDpi = fitDpi(size.width, size.height, dpi, maxPagePixels);
      const viewport = page.getViewport({ scale: usedDpi / 72 });
      const width = Math.max(1, Math.floor(viewport.width));
      const height = Math.max(1, Math.floor(viewport.height));
      const factory = new CanvasFactory();
      const target = factory.create(width, height);
      // @napi-rs/canvas stands in for the DOM canvas that PDF.js's types name.
      const task = page.render({
        canvas: target.canvas,
        canvasContext: target.context,
        viewport,
        background: 'rgb(255,255,255)',
      } as unknown as Parameters<typeof page.render>[0]);
      // PDF.js draws in slices of about 15 ms, chained by microtasks: no timer could fire in
      // between. Each slice is let go on to the next after the event loop has had its turn
      // (other requests are answered meanwhile), unless the deadline has passed or the client
      // has gone.
      let timedOut = false;
      task.onContinue = (next: () => void) => {
        if (Date.now() > deadline) {
          timedOut = true;
          task.cancel();
        } else if (signal?.aborted) {
          task.cancel();
        } else {
          setImmediate(next);
        }
      };
      try {
        await task.promise;
        // Stopped by the meter, PDF.js may have drawn what it had and called it done.
        if (Date.now() > deadline) timedOut = true;
        if (timedOut) throw new Error('out of time');
        const pixels = (target.context as unknown as CanvasLike).getImageData(
          0,
          0,
          width,
          height,
        ).data;
        return {
          page: pageNumber,
          width: size.width,
          height: size.height,
          dpi: usedDpi,
          image: {
            data: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength),
            width,
            height,
          },
        };
      } catch (error) {
        settled = Date.now() + 150;
        signal?.throwIfAborted();
        if (timedOut) {
          throw new PageTooComplexError(`Page ${pageNumber} ran out of its time budget.`);
        }
        throw new PdfUnreadableError(`Page ${pageNumber} of the PDF cannot be rendered.`, {
          cause: error,
        });
      } finally {
        clock.deadline = Infinity;
        factory.destroy(target);
        page.cleanup();
      }
    },
    async close() {
      const wait = settled - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      unregister();
      await pdf.loadingTask.destroy();
    },
  };
}

/**
 * The work meter that dev/patch-pdfjs.mjs adds to PDF.js (when the package was installed with
 * it, as the root package and the Dockerfile do): PDF.js charges it with the bytes it decodes
 * and the content it parses, and stops with an error when a charge is refused. Here the meter
 * refuses once the page's deadline has passed, so that parsing a page's content — one long
 * run that no timer interrupts — stops at the deadline too.
 */
interface PdfJsMeter {
  charge(kind: string, bytes: number): boolean;
}

const METERS = Symbol.for('kbchat.pdfjs.meters');

function registerMeter(docId: string, meter: PdfJsMeter): () => void {
  const holder = globalThis as unknown as Record<symbol, Map<string, PdfJsMeter> | undefined>;
  const registry = (holder[METERS] ??= new Map());
  registry.set(docId, meter);
  return () => {
    if (registry.get(docId) === meter) registry.delete(docId);
  };
}

interface CanvasLike {
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}

/**
 * The dpi to render a page of `width` × `height` points at: `dpi`, or less so that the image
 * has at most `maxPixels` pixels. Rounded down to a hundredth.
 */
export function fitDpi(width: number, height: number, dpi: number, maxPixels: number): number {
  const pixelsAt = (d: number) => Math.ceil((width * d) / 72) * Math.ceil((height * d) / 72);
  if (pixelsAt(dpi) <= maxPixels) return dpi;
  let fitted = Math.floor(72 * Math.sqrt(maxPixels / (width * height)) * 100) / 100;
  while (fitted > 0.01 && pixelsAt(fitted) > maxPixels) fitted -= 0.01;
  return Math.max(0.01, Math.round(fitted * 100) / 100);
}

function describeOpenError(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') return 'The PDF is encrypted; it needs a password.';
  return 'The file cannot be read as a PDF.';
}
