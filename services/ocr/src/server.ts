/**
 * The OCR service over HTTP (node:http): `POST /v1/read?first=&last=` with a PDF as the body,
 * `GET /health`. See ../README.md for the API, the settings and the limits.
 *
 * Run as a program (`node services/ocr/src/server.ts`) it loads the models, listens on
 * HOST:PORT and prints one line, `kbchat-ocr listening on http://…`, once it is ready.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PageOutOfRangeError, PageTooComplexError, PdfUnreadableError } from './errors.ts';
import { EngineQueue } from './queue.ts';
import { readPages, type PageTimings } from './read-pages.ts';
import { loadEngine, type Engine } from './recognise.ts';
import { readSettings, type Settings } from './settings.ts';

export const ENGINE_NAME = 'PP-OCRv4';

export interface OcrServer {
  /** http://host:port, the port the server actually listens on. */
  url: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** A loaded engine to share (tests); loaded from the settings otherwise. */
  engine?: Engine;
  /** One line per request and per failure; stdout/stderr by default. */
  log?(line: string): void;
  logError?(line: string): void;
}

/** Thrown inside a request: answered as `{"error": {code, message}}` with `status`. */
class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const PDF_TYPES = new Set(['application/pdf', 'application/octet-stream']);

export async function startServer(
  settings: Settings,
  options: ServerOptions = {},
): Promise<OcrServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const logError = options.logError ?? ((line: string) => console.error(line));
  const engine = options.engine ?? (await loadEngine({ threads: settings.threads }));
  const queue = new EngineQueue(settings.queueLength);
  let pagesInProgress = 0;
  /** Recent seconds per page, for Retry-After. */
  let secondsPerPage = 5;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://ocr.invalid');
    if (url.pathname === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed('GET');
      return sendJson(res, 200, {
        ok: true,
        engine: ENGINE_NAME,
        busy: pagesInProgress,
        queued: queue.queued,
      });
    }
    if (url.pathname !== '/v1/read') {
      throw new HttpError(404, 'not_found', 'There is nothing here: POST /v1/read or GET /health.');
    }
    if (req.method !== 'POST') throw methodNotAllowed('POST');
    authorise(req);
    const { first, last } = pageRange(url.searchParams);
    const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type && !PDF_TYPES.has(type)) {
      throw new HttpError(415, 'not_pdf', 'Send the document as application/pdf.');
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > settings.maxBodyBytes) throw tooLarge();

    const place = queue.reserve();
    if (!place) {
      const seconds = Math.ceil(secondsPerPage * (queue.queued + 1));
      throw new HttpError(503, 'busy', 'The text reader is busy; try again shortly.', {
        'Retry-After': String(Math.min(600, Math.max(1, seconds))),
      });
    }
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new ClientGone('The client went away.'));
    });
    let body: Uint8Array;
    try {
      body = await readBody(req, settings.maxBodyBytes);
    } catch (error) {
      place.release();
      throw error;
    }
    if (!looksLikePdf(body)) {
      place.release();
      throw new HttpError(415, 'not_pdf', 'The document is not a PDF.');
    }
    const release = await place.enter(controller.signal);
    const started = performance.now();
    // PDF.js takes the bytes over (their buffer is detached): remember the size first.
    const bytes = body.length;
    const timings: PageTimings[] = [];
    try {
      const pages = await readPages(body, first, last, {
        engine,
        settings,
        signal: controller.signal,
        onPageStart: () => pagesInProgress++,
        onPageEnd: (page) => {
          pagesInProgress--;
          if (page) {
            timings.push(page);
            const seconds = (page.renderMs + page.detectMs + page.recogniseMs) / 1000;
            secondsPerPage = 0.7 * secondsPerPage + 0.3 * seconds;
          }
        },
      });
      sendJson(res, 200, { pages });
    } finally {
      release();
      log(describeRead(first, last, bytes, performance.now() - started, timings));
    }
  }

  function authorise(req: http.IncomingMessage): void {
    if (!settings.apiKey) return;
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match || !sameSecret(match[1]!.trim(), settings.apiKey)) {
      throw new HttpError(
        401,
        'unauthorized',
        'A valid API key is needed (Authorization: Bearer).',
        {
          'WWW-Authenticate': 'Bearer',
        },
      );
    }
  }

  function pageRange(params: URLSearchParams): { first: number; last: number } {
    const first = pageNumber(params.get('first'), 'first');
    const last = pageNumber(params.get('last'), 'last');
    if (last < first) {
      throw new HttpError(400, 'bad_request', '"last" must not be before "first".');
    }
    if (last - first + 1 > settings.maxPages) {
      throw new HttpError(
        400,
        'bad_request',
        `At most ${settings.maxPages} pages per request; ask for the others in further requests.`,
      );
    }
    return { first, last };
  }

  function tooLarge(): HttpError {
    return new HttpError(
      413,
      'document_too_large',
      `The document is larger than ${formatBytes(settings.maxBodyBytes)}.`,
    );
  }

  /** The body, refused (413) as soon as it passes the limit. */
  function readBody(req: http.IncomingMessage, limit: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const cleanup = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('aborted', onAborted);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          cleanup();
          req.pause();
          reject(tooLarge());
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        cleanup();
        const body = new Uint8Array(size);
        let offset = 0;
        for (const chunk of chunks) {
          body.set(chunk, offset);
          offset += chunk.length;
        }
        resolve(body);
      };
      const onError = (error: Error) => {
        cleanup();
        reject(new ClientGone(error.message));
      };
      const onAborted = () => {
        cleanup();
        reject(new ClientGone('The client went away.'));
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('aborted', onAborted);
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof ClientGone || res.destroyed || (res.headersSent && !res.writable)) {
        return;
      }
      const failure = toHttpError(error);
      const what = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
      if (failure.status === 500) {
        logError(`kbchat-ocr: ${what} failed: ${describeInternal(error)}`);
      } else {
        log(`kbchat-ocr: ${what} → ${failure.status} ${failure.code}: ${failure.message}`);
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(
        res,
        failure.status,
        { error: { code: failure.code, message: failure.message } },
        {
          ...failure.headers,
        },
      );
      if (!req.complete) discardRest(req);
    });
  });
  // Receiving the document may take a while on a slow link; reading it takes longer still,
  // and that is not a timeout of the request.
  server.requestTimeout = 10 * 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (settings.warmUp) {
    // A4 at OCR_DPI, the commonest page; requests that come meanwhile wait their turn.
    const place = queue.reserve();
    if (place) {
      void place.enter().then(async (release) => {
        try {
          const width = Math.floor((595 * settings.dpi) / 72);
          const height = Math.floor((842 * settings.dpi) / 72);
          if (width * height <= settings.maxPagePixels) {
            await engine.warmUp(width, height, settings.maxDetectPixels);
          }
        } catch (error) {
          logError(`kbchat-ocr: warm-up failed: ${describeInternal(error)}`);
        } finally {
          release();
        }
      });
    }
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The rest of a body that will not be read is discarded for a few seconds, not kept, so that a
 * client still sending sees the answer rather than a broken pipe; then the connection closes.
 */
function discardRest(req: http.IncomingMessage): void {
  const timer = setTimeout(() => req.socket.destroy(), DISCARD_MS);
  timer.unref();
  req.on('end', () => clearTimeout(timer));
  req.on('data', () => {});
  req.resume();
}

const DISCARD_MS = 10_000;

class ClientGone extends Error {
  override name = 'ClientGone';
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof PdfUnreadableError) {
    return new HttpError(422, 'pdf_unreadable', error.message);
  }
  if (error instanceof PageOutOfRangeError) {
    return new HttpError(422, 'page_out_of_range', error.message);
  }
  if (error instanceof PageTooComplexError) {
    return new HttpError(422, 'page_too_complex', error.message);
  }
  return new HttpError(500, 'internal', 'The text reader failed; the failure has been logged.');
}

function methodNotAllowed(allowed: string): HttpError {
  return new HttpError(405, 'method_not_allowed', `Use ${allowed} here.`, { Allow: allowed });
}

function pageNumber(value: string | null, name: string): number {
  if (value === null || !/^\d{1,9}$/.test(value) || Number(value) < 1) {
    throw new HttpError(400, 'bad_request', `"${name}" must be a page number (1 or more).`);
  }
  return Number(value);
}

/** Constant-time comparison of two secrets of any length. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** `%PDF-` within the first kilobyte, as PDF readers accept it. */
function looksLikePdf(body: Uint8Array): boolean {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 1024));
  return head.includes('%PDF-', 0, 'latin1');
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

function describeRead(
  first: number,
  last: number,
  bytes: number,
  ms: number,
  pages: PageTimings[],
): string {
  const parts = pages.map(
    (p) =>
      `p${p.page} ${p.dpi} dpi ${p.lines} lines (render ${p.renderMs} ms, detect ${p.detectMs} ms, ` +
      `recognise ${p.recogniseMs} ms)`,
  );
  return (
    `kbchat-ocr: read pages ${first}-${last} of ${formatBytes(bytes)} in ${Math.round(ms)} ms` +
    (parts.length ? `: ${parts.join('; ')}` : '')
  );
}

/** The error's name and message for the log (never sent to the client). */
function describeInternal(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

async function main(): Promise<void> {
  let settings: Settings;
  try {
    settings = readSettings(process.env);
  } catch (error) {
    console.error(`kbchat-ocr: ${(error as Error).message}`);
    process.exit(2);
  }
  // A failure outside any request (a stray callback of a library) is logged; the service keeps
  // answering rather than dropping every request in progress.
  process.on('uncaughtException', (error) => {
    console.error(`kbchat-ocr: uncaught exception: ${describeInternal(error)}`);
  });
  process.on('unhandledRejection', (error) => {
    console.error(`kbchat-ocr: unhandled rejection: ${describeInternal(error)}`);
  });
  const loading = performance.now();
  const engine = await loadEngine({ threads: settings.threads });
  const loadMs = Math.round(performance.now() - loading);
  const server = await startServer(settings, { engine });
  console.log(`kbchat-ocr listening on ${server.url} (${ENGINE_NAME} loaded in ${loadMs} ms)`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Started by the dev stack (dev/stack/ocr.ts): its end of our stdin closes when it exits,
  // however it exits, and then so do we.
  if (process.env.OCR_STOP_ON_STDIN_END === '1') {
    process.stdin.on('end', stop);
    process.stdin.on('error', stop);
    process.stdin.resume();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`kbchat-ocr: cannot start: ${describeInternal(error)}`);
    process.exit(1);
  });
}
