import { AppError } from '#shared/errors/app-error';
import type { OcrSettings } from '../config';
import { OcrProblem, OcrRead, type OcrPage } from '#shared/contracts/ocr';

/**
 * The ingestion's calls to the OCR service (services/ocr), which renders a PDF page and reads
 * it. One page per request: a page the service refuses (too complex, a noise image) costs that
 * page only. The original goes to the service as the body, streamed from R2 as it is read: a
 * Worker never holds a whole scan in memory for it.
 *
 * A service that is down, busy, slow or misconfigured throws `ocr_unavailable`, which the
 * workflow records on the file ("waiting for the text reader") and retries with backoff; after
 * the last retry the file fails as `ocr_gave_up` (steps.ts).
 */

/** Where OCR requests go: a base URL, fetched over HTTP or through the OCR service binding. */
export interface OcrEndpoint {
  url: string;
  fetch: (request: Request) => Promise<Response>;
  apiKey: string | undefined;
  timeoutMs: number;
}

/**
 * The OCR endpoint: OCR_URL when set (the local service, or any host running its image), else
 * the OCR_SERVICE binding (the container worker, workers/ocr); undefined when OCR is off.
 */
export function ocrEndpoint(
  settings: OcrSettings,
  binding: Fetcher | undefined,
): OcrEndpoint | undefined {
  if (!settings.enabled) return undefined;
  const { apiKey, timeoutMs } = settings;
  if (settings.url) return { url: settings.url, fetch: (r) => fetch(r), apiKey, timeoutMs };
  // The host of a service binding's URL is not looked up: the binding is the route.
  if (binding) return { url: 'http://ocr', fetch: (r) => binding.fetch(r), apiKey, timeoutMs };
  return undefined;
}

/** A page the service would not read, and why (its error code): the page stays without text. */
export interface OcrRefusal {
  page: number;
  refused: string;
}

/** Answers the service may give about one page of the document: the page is left unread. */
const PAGE_REFUSALS = new Set(['page_too_complex', 'page_out_of_range', 'pdf_unreadable']);

export async function readPageByOcr(
  endpoint: OcrEndpoint,
  body: ReadableStream<Uint8Array>,
  page: number,
): Promise<OcrPage | OcrRefusal> {
  let response: Response;
  try {
    response = await endpoint.fetch(
      new Request(`${endpoint.url}/v1/read?first=${page}&last=${page}`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/pdf',
          ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
        },
        signal: AbortSignal.timeout(endpoint.timeoutMs),
      }),
    );
  } catch (err) {
    throw new AppError('ocr_unavailable', { cause: err });
  }
  if (response.ok) {
    // Checked like any answer from another process: a page that is not what the contract says
    // fails the step (and is retried), never the index.
    const answer = OcrRead.safeParse(await response.json().catch(() => undefined));
    const read = answer.success ? answer.data.pages.find((p) => p.page === page) : undefined;
    if (!read) {
      throw new AppError('ocr_unavailable', { cause: new Error('answered without the page') });
    }
    return read;
  }
  const problem = OcrProblem.safeParse(await response.json().catch(() => undefined));
  const code = problem.success ? problem.data.error.code : undefined;
  if (response.status === 422 && code && PAGE_REFUSALS.has(code)) return { page, refused: code };
  // The file's status says "waiting for the text reader"; what the service said is for the log.
  throw new AppError('ocr_unavailable', {
    cause: new Error(`answered ${response.status}${code ? ` (${code})` : ''}`),
  });
}

export const isRefusal = (read: OcrPage | OcrRefusal): read is OcrRefusal => 'refused' in read;
