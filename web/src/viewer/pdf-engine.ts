/**
 * PDF.js for the document viewer, loaded the first time a PDF is shown (it is the size of the
 * rest of the app), under the page's strict CSP:
 * - its worker comes from this origin (`/assets/pdfjs/`, copied there by dev/web-build.ts) and is
 *   created here, through a Trusted Types policy that knows that one URL and nothing else, since
 *   the CSP requires Trusted Types for script URLs too;
 * - nothing is compiled at run time: no WebAssembly decoders (`useWasm: false`: PDF.js's
 *   JavaScript ones), no separate rendering worker; the main thread fetches the CJK CMaps and
 *   standard fonts (`useWorkerFetch: false`), as the worker's own CSP lets it fetch nothing;
 * - the file is read by range requests (`disableAutoFetch`, `disableStream`): opening page 30
 *   of a long PDF fetches its cross-reference table, that page's objects and fonts, not the file.
 */
import type * as PdfJsModule from 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { TrustedTypePolicy, TrustedTypesWindow } from 'trusted-types/lib';

export const PDF_ASSETS = '/assets/pdfjs/';
const WORKER_URL = `${PDF_ASSETS}pdf.worker.min.mjs`;
/** The Trusted Types policy that creates the worker's URL (listed in the page's CSP). */
export const PDF_WORKER_POLICY = 'kbchat-pdf-worker';
/** Bytes per range request: a page's objects usually take one or two. */
const RANGE_CHUNK = 64 * 1024;

type PdfJs = typeof PdfJsModule;

let policy: TrustedTypePolicy | undefined;
let library: Promise<PdfJs> | undefined;

function workerUrl(): string | URL {
  const factory = (window as unknown as TrustedTypesWindow).trustedTypes;
  policy ??= factory?.createPolicy(PDF_WORKER_POLICY, {
    createScriptURL: (url: string) => {
      if (url !== WORKER_URL) throw new TypeError(`${PDF_WORKER_POLICY}: not the PDF.js worker`);
      return url;
    },
  }) as TrustedTypePolicy | undefined;
  // A TrustedScriptURL where the browser has Trusted Types; the string where it has none.
  return (policy?.createScriptURL(WORKER_URL) ?? WORKER_URL) as unknown as string;
}

function pdfjs(): Promise<PdfJs> {
  library ??= import('pdfjs-dist').then((loaded) => {
    loaded.GlobalWorkerOptions.workerPort = new Worker(workerUrl(), { type: 'module' });
    return loaded;
  });
  return library;
}

/** An open PDF, and what closes it (its requests and its state in the worker). */
export interface OpenPdf {
  doc: PDFDocumentProxy;
  close(): Promise<void>;
}

/** A stored PDF, opened for reading page by page. */
export async function openPdf(source: {
  url: string;
  headers: Record<string, string>;
}): Promise<OpenPdf> {
  const loaded = await pdfjs();
  const task = loaded.getDocument({
    url: source.url,
    httpHeaders: source.headers,
    rangeChunkSize: RANGE_CHUNK,
    disableAutoFetch: true,
    disableStream: true,
    cMapUrl: `${PDF_ASSETS}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDF_ASSETS}standard_fonts/`,
    useWorkerFetch: false,
    useWasm: false,
    disableWorkerRendering: true,
    enableXfa: false,
  });
  try {
    return { doc: await task.promise, close: () => task.destroy() };
  } catch (err) {
    void task.destroy();
    throw err;
  }
}

/** The text layer's class, from the same load. */
export async function textLayerClass(): Promise<PdfJs['TextLayer']> {
  return (await pdfjs()).TextLayer;
}
