// The parts of the knowledge module's HTTP API the evaluation uses: upload, list, query. Every
// request has a timeout and never follows a redirect (a token must not travel elsewhere).
import type { RankedResult } from './metrics.ts';

export const MODES = ['vector', 'hybrid', 'keyword'] as const;
export type Mode = (typeof MODES)[number];

/** A query result as served; the hybrid-search fields are optional (older servers lack them). */
export interface ServedResult extends RankedResult {
  id: number;
  content: string;
  /** Which ranked lists found it, e.g. ["vector","keyword"] (hybrid search servers only). */
  found_by?: string[];
  /** Its 1-based rank in each list that found it. */
  ranks?: { vector?: number; keyword?: number };
}

export interface StoredFile {
  id: string;
  name: string;
  pages: number;
  chunks: number;
  /** Pages joined by form feeds; only when asked for. */
  content?: string;
}

export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const REQUEST_TIMEOUT_MS = 30_000;
const UPLOAD_TIMEOUT_MS = 120_000;

export interface KnowledgeApi {
  base: string;
  token: string;
}

async function call<T>(
  api: KnowledgeApi,
  route: string,
  init: RequestInit = {},
  timeout = REQUEST_TIMEOUT_MS,
): Promise<T> {
  const res = await fetch(`${api.base}${route}`, {
    ...init,
    headers: { ...init.headers, Authorization: `Bearer ${api.token}` },
    redirect: 'error',
    signal: AbortSignal.timeout(timeout),
  });
  const text = await res.text();
  if (!res.ok) {
    // The path only: query strings hold the question text, which need not reach a log.
    const path = route.split('?')[0];
    throw new HttpError(
      res.status,
      `${init.method ?? 'GET'} ${path} answered ${res.status}: ${text.slice(0, 300)}`,
    );
  }
  return (JSON.parse(text) as { data: T }).data;
}

export function uploadPdf(api: KnowledgeApi, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new File([bytes], name, { type: 'application/pdf' }));
  return call<{ id: string; name: string; pages: number; chunks: number; duplicate: boolean }>(
    api,
    '/moduleknowledge/upload',
    { method: 'POST', body: form },
    UPLOAD_TIMEOUT_MS,
  );
}

export function listFiles(api: KnowledgeApi, withContent: boolean): Promise<StoredFile[]> {
  return call(api, `/moduleknowledge/list${withContent ? '?with_content=true' : ''}`);
}

/** GET /moduleknowledge/query with `mode`; a server without hybrid search ignores it. */
export function queryKnowledge(
  api: KnowledgeApi,
  params: { text: string; top: number; mode: Mode },
): Promise<ServedResult[]> {
  const search = new URLSearchParams({
    text: params.text,
    top: String(params.top),
    mode: params.mode,
  });
  return call(api, `/moduleknowledge/query?${search}`);
}
