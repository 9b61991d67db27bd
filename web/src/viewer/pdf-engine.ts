/**
 * PDF.js for the document viewer, loaded the first time a PDF is shown (it is the size of the
 * rest of the app), under the page's strict CSP:
 * - its worker comes from this origin (`/assets/pdfjs/`, copied there by dev/web-build.ts) and is
 *   created here, through a Trusted Types policy that knows that one URL and nothing else, since
 *   the CSP requires Trusted Types for script URLs too;
 * - nothing is compiled at run time: no WebAssembly decoders (`useWasm: false`: PDF.js's
 *   JavaScript ones), no separate rendering worker; the main thread fetches the CJK CMaps and
 *   standard fonts (`useWorkerFetch: false`), as the worker's own CSP lets it fetch nothing;
 * - the file is read by range requests (see openPdf): opening page 30 of a long PDF fetches its
 *   cross-reference table, that page's objects and fonts, not the file.
 */
import type * as PdfJsModule from 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { TrustedTypePolicy, TrustedTypesWindow } from 'trusted-types/lib';

export const PDF_ASSETS = '/assets/pdfjs/';
const WORKER_URL = `${PDF_ASSETS}pdf.worker.min.mjs`;
/** The Trusted Types policy that creates the worker's URL (listed in the page's CSP). */
export const PDF_WORKER_POLICY = 'kbchat-pdf-worker';
/**
 * Bytes per range request. Measured (bench:viewer, page 30 of a 34-page 1.6 MB PDF): 16 KB
 * fetched 123 KB in about 8 requests and took longer than 64 KB, which fetched 221 KB in 4;
 * each request crosses the gateway, the knowledge worker and R2, so fewer weigh more.
 */
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

/** Where the stored file is, and the headers every request sends (the token). */
export interface PdfSource {
  url: string;
  headers: Record<string, string>;
}

/**
 * A stored PDF, opened for reading page by page. The first request asks for the file's first
 * chunk by range, which also tells its length (Content-Range); PDF.js then asks for exactly the
 * ranges it needs (the cross-reference table at the end, one page's objects and fonts) through
 * a range transport. Left to itself, PDF.js first requests the whole file and cancels it once
 * the headers show that ranges work: the service has then begun to stream the whole original
 * out of R2 for nothing (the browser counted no body bytes of it locally; on a slow link some
 * arrive before the cancel does). A service that answers the first request whole (no ranges)
 * gets its file read from memory.
 */
export async function openPdf(source: PdfSource): Promise<OpenPdf> {
  const loaded = await pdfjs();
  const first = await fetchRange(source, 0, RANGE_CHUNK);
  const options = {
    cMapUrl: `${PDF_ASSETS}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDF_ASSETS}standard_fonts/`,
    useWorkerFetch: false,
    useWasm: false,
    disableWorkerRendering: true,
    enableXfa: false,
  };
  let task: ReturnType<PdfJs['getDocument']>;
  const length = first.status === 206 ? totalLength(first.headers.get('Content-Range')) : undefined;
  if (length !== undefined) {
    const transport = new loaded.PDFDataRangeTransport(
      length,
      new Uint8Array(await first.arrayBuffer()),
    );
    transport.requestDataRange = (begin: number, end: number) => {
      fetchRange(source, begin, end)
        .then(async (response) => {
          if (response.status !== 206) throw new Error(`range answered ${response.status}`);
          transport.onDataRange(begin, new Uint8Array(await response.arrayBuffer()));
        })
        // A range that cannot be read fails the document (the viewer says so), not hangs it.
        .catch(() => void task.destroy());
    };
    task = loaded.getDocument({
      ...options,
      range: transport,
      rangeChunkSize: RANGE_CHUNK,
      disableAutoFetch: true,
      disableStream: true,
    });
  } else if (first.ok) {
    task = loaded.getDocument({ ...options, data: new Uint8Array(await first.arrayBuffer()) });
  } else {
    throw new Error(`the original answered ${first.status}`);
  }
  try {
    return { doc: await task.promise, close: () => task.destroy() };
  } catch (err) {
    void task.destroy();
    throw err;
  }
}

/** Bytes [begin, end) of the stored file. */
function fetchRange(source: PdfSource, begin: number, end: number): Promise<Response> {
  return fetch(source.url, {
    headers: { ...source.headers, Range: `bytes=${begin}-${end - 1}` },
  });
}

/** The whole length a `Content-Range: bytes a-b/length` header tells, if it does. */
export function totalLength(header: string | null): number | undefined {
  const match = /^bytes \d+-\d+\/(\d+)$/.exec(header?.trim() ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * Loads PDF.js and starts its worker while the browser is idle, so that the first citation
 * opened is drawn as fast as the next ones: called when an answer cites a PDF.
 */
export function preparePdfViewer(): void {
  if (library) return;
  const start = () => void pdfjs().catch(() => (library = undefined));
  if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 200);
}

/** The text layer's class, from the same load. */
export async function textLayerClass(): Promise<PdfJs['TextLayer']> {
  return (await pdfjs()).TextLayer;
}
