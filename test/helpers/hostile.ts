// Helpers for the hostile-input and authorisation tests: what the service stored (rows and R2
// objects), the problem-details shape every refusal must have, and raw multipart bodies (so a
// test controls every byte of a part header, which FormData would escape).
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { call } from './auth';
import { queryRows } from './database';

export interface StoreCounts {
  files: number;
  pages: number;
  chunks: number;
  users: number;
  objects: number;
}

/** Rows in every table the service writes, and objects in the originals bucket. */
export async function storeCounts(): Promise<StoreCounts> {
  const [row] = await queryRows<Omit<StoreCounts, 'objects'>>(sql`
    select (select count(*)::int from files) as files,
           (select count(*)::int from file_pages) as pages,
           (select count(*)::int from chunks) as chunks,
           (select count(*)::int from users) as users`);
  return { ...row!, objects: (await bucketKeys()).length };
}

/** Every key in the originals bucket. */
export async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.FILES.list({ cursor, limit: 1000 });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** SHA-256 (hex) of each stored original, by key, from the checksum R2 keeps. */
export async function bucketHashes(): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const key of await bucketKeys()) {
    const head = await env.FILES.head(key);
    const sha = head?.checksums.sha256;
    if (sha) hashes.set(key, hex(new Uint8Array(sha)));
  }
  return hashes;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface FileRow extends Record<string, unknown> {
  id: string;
  name: string;
  sha256: string;
  uploader_id: string;
}

export async function fileRowsWhere(condition: ReturnType<typeof sql>): Promise<FileRow[]> {
  return queryRows<FileRow>(
    sql`select id::text as id, name, sha256, uploader_id::text as uploader_id from files where ${condition}`,
  );
}

/** Checks that the tables the service relies on still exist and answer. */
export async function tablesIntact(): Promise<void> {
  const rows = await queryRows<{ name: string }>(sql`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'
      and c.relname in ('files', 'file_pages', 'chunks', 'users', 'login_failures')`);
  expect(rows.map((r) => r.name).sort()).toEqual(
    ['chunks', 'file_pages', 'files', 'login_failures', 'users'].sort(),
  );
  const [extension] = await queryRows<{ extname: string }>(
    sql`select extname from pg_extension where extname = 'vector'`,
  );
  expect(extension?.extname).toBe('vector');
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id?: string;
  errors?: { field: string; message: string }[];
}

/**
 * Asserts that `res` is a refusal in the one problem-details shape, with a status among
 * `statuses` (and a code among `codes` when given), and returns its body.
 */
export async function expectProblem(
  res: Response,
  statuses: readonly number[],
  codes?: readonly string[],
  context = '',
): Promise<ProblemBody> {
  const text = await res.text();
  const where = `${context} → ${res.status} ${text.slice(0, 300)}`;
  expect(statuses, where).toContain(res.status);
  expect(res.headers.get('content-type'), where).toBe('application/problem+json');
  const body = JSON.parse(text) as ProblemBody;
  expect(body, where).toMatchObject({
    type: 'about:blank',
    title: expect.any(String),
    status: res.status,
    detail: expect.any(String),
    code: expect.any(String),
  });
  expect(body.request_id, where).toBe(res.headers.get('x-request-id'));
  const allowed = new Set(['type', 'title', 'status', 'detail', 'code', 'request_id', 'errors']);
  expect(
    Object.keys(body).filter((key) => !allowed.has(key)),
    where,
  ).toEqual([]);
  if (codes) expect(codes, where).toContain(body.code);
  // Internals never reach the client: no stack trace, no parser or driver message.
  expect(text, where).not.toMatch(/\n\s+at |pdf\.js|PDFJS|drizzle|neon|postgres|SQLSTATE/i);
  return body;
}

/**
 * What is wrong with a response that should be a refusal with one of `statuses`, or undefined
 * when nothing is. A 4xx other than the fixed auth refusals must be problem JSON. For tests
 * that check many requests and report every mismatch at once.
 */
export function refusalMismatch(
  res: Response,
  text: string,
  statuses: readonly number[],
): string | undefined {
  const summary = `${res.status} ${text.slice(0, 200).replace(/\s+/g, ' ')}`;
  if (!statuses.includes(res.status)) return `expected ${statuses.join('/')}, got ${summary}`;
  if (res.status < 400) return undefined;
  const fixedAuthText =
    [401, 403].includes(res.status) && /^(Unauthorised|Access denied)$/.test(text);
  if (fixedAuthText) return undefined;
  if (res.headers.get('content-type') !== 'application/problem+json') {
    return `not problem JSON: ${res.headers.get('content-type')} ${summary}`;
  }
  try {
    const body = JSON.parse(text) as Partial<ProblemBody>;
    const ok =
      body.type === 'about:blank' &&
      typeof body.title === 'string' &&
      body.status === res.status &&
      typeof body.detail === 'string' &&
      typeof body.code === 'string' &&
      body.request_id === res.headers.get('x-request-id');
    return ok ? undefined : `not the problem shape: ${summary}`;
  } catch {
    return `unparseable problem body: ${summary}`;
  }
}

/** Never a 5xx: the status of a response and its body, for failure messages. */
export async function expectNo5xx(res: Response, context = ''): Promise<void> {
  const text = await res.clone().text();
  expect(res.status, `${context} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
}

export interface RawPart {
  /** The raw Content-Disposition value after `form-data; `, e.g. `name="file"; filename="x"`. */
  disposition: string;
  contentType?: string;
  data: Uint8Array | string;
}

/** A multipart/form-data body written byte for byte (part headers as given, Latin-1/UTF-8). */
export function rawMultipart(parts: RawPart[]): { body: Uint8Array; contentType: string } {
  const boundary = `----hostile${crypto.randomUUID().replaceAll('-', '')}`;
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; ${part.disposition}\r\n`;
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(encoder.encode(`${head}\r\n`));
    chunks.push(typeof part.data === 'string' ? encoder.encode(part.data) : part.data);
    chunks.push(encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /moduleknowledge/upload with one `file` part, through the gateway. */
export function upload(
  token: string,
  bytes: Uint8Array,
  name = 'upload.pdf',
  type = 'application/pdf',
): Promise<Response> {
  const form = new FormData();
  form.append('file', new File([bytes], name, { type }));
  return call('/moduleknowledge/upload', { token, body: form });
}

export interface Uploaded {
  id: string;
  name: string;
  pages: number;
  chunks: number;
  duplicate: boolean;
}

export async function uploadOk(token: string, bytes: Uint8Array, name?: string): Promise<Uploaded> {
  const res = await upload(token, bytes, name);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: Uploaded }>()).data;
}

export async function deleteFile(token: string, id: string): Promise<Response> {
  return call(`/moduleknowledge/file?id=${encodeURIComponent(id)}`, { method: 'DELETE', token });
}

/** Wall time of one request, measured across the I/O it waits for (workerd's clock moves then). */
export async function timedFetch(
  work: () => Promise<Response>,
): Promise<{ res: Response; ms: number }> {
  const started = Date.now();
  const res = await work();
  await res.clone().arrayBuffer();
  return { res, ms: Date.now() - started };
}
