// Helpers for the e2e tests: the public API as a plain client, documents, the offline model's
// controls, a slow link, logging in.
import net from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import type { E2eStack } from './stack';

export const stack = (): E2eStack => inject('e2e');

/** A name no other test (or earlier run) uses. */
export const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

// ---- the public API, as any client calls it ------------------------------------------------

export async function callApi<T = unknown>(
  path: string,
  options: { token?: string; method?: string; json?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers = new Headers();
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  if (options.json !== undefined) headers.set('Content-Type', 'application/json');
  const res = await fetch(`${stack().baseUrl}${path}`, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: (type.includes('json') ? JSON.parse(text) : text) as T };
}

export async function tokenFor(username: string, password: string): Promise<string> {
  const res = await callApi<{ data: { token: string } }>('/moduleauth/login', {
    json: { username, password },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.token;
}

export const adminToken = () => tokenFor(stack().admin.username, stack().admin.password);

export interface CreatedUser {
  id: string;
  username: string;
  password: string;
}

/** Creates a user through the admin API (CreateUser), as the seeded super admin. */
export async function createUser(superAdmin = false): Promise<CreatedUser> {
  const username = unique(superAdmin ? 'boss' : 'reader');
  const password = `pw-${crypto.randomUUID()}`;
  const res = await callApi<{ data: { id: string } }>('/moduleauth/user', {
    token: await adminToken(),
    json: { username, password, super_admin: superAdmin },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.data.id, username, password };
}

export interface KnowledgeFileRow {
  id: string;
  name: string;
  status: 'queued' | 'processing' | 'ready' | 'failed';
  pages: number;
  chunks: number;
  uploader: { id: string; username: string };
  collection: { id: string; name: string };
}

/** The built-in collection every user reads: the one the page shows first. */
export const SHARED_COLLECTION_ID = '00000000-0000-0000-0000-000000000000';

export async function listFiles(token: string): Promise<KnowledgeFileRow[]> {
  const res = await callApi<{ data: KnowledgeFileRow[] }>('/moduleknowledge/list', { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

export async function uploadViaApi(token: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
  const res = await fetch(`${stack().baseUrl}/moduleknowledge/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: { id: string } }).data;
}

/** Uploads without waiting for the file to be processed (202): as the web app does. */
export async function uploadAsyncViaApi(token: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new File([new Uint8Array(bytes)], name));
  const res = await fetch(`${stack().baseUrl}/moduleknowledge/upload?async=true`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { data: { id: string; status: string } }).data;
}

export async function deleteFileViaApi(token: string, id: string): Promise<void> {
  const res = await callApi(`/moduleknowledge/file?id=${id}`, { token, method: 'DELETE' });
  expect([204, 404]).toContain(res.status);
}

// ---- the offline model ---------------------------------------------------------------------

/**
 * Calls one of the offline model endpoint's test controls (dev/stack/offline-model.ts):
 * `fail` queues failures, `delay` slows every answer, `reset` undoes both.
 */
export async function modelControl(
  control: 'fail' | 'delay' | 'reset',
  body: Record<string, unknown> = {},
): Promise<void> {
  const res = await fetch(`${stack().modelControlUrl}/${control}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.text()).toBeLessThan(300);
}

/** Every embedding request fails (400: the SDK does not retry it) until `modelControl('reset')`. */
export const embeddingsFail = () =>
  modelControl('fail', { path: '/v1/embeddings', times: 1000, status: 400 });

/** Every embedding answer waits `ms` first, so that ingestion can be watched step by step. */
export const embeddingsSlow = (ms: number) => modelControl('delay', { path: '/v1/embeddings', ms });

// ---- documents ----------------------------------------------------------------------------

/** A 1×1 PNG: a file that is no document, whatever it is named. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export function pdfFile(name: string, pages: readonly string[]): FilePayload {
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(makeTextPdf(pages)) };
}

/**
 * The same PDF grown by `bytes` of comment lines just before its cross-reference table (whose
 * offset is moved accordingly): still a valid PDF with the same text, but big enough that an
 * upload over a slow link takes a while.
 */
export function paddedPdf(pdf: Uint8Array, bytes: number): Uint8Array {
  const text = Buffer.from(pdf).toString('latin1');
  const at = text.lastIndexOf('\nxref\n') + 1;
  const startxref = /startxref\s+(\d+)/.exec(text.slice(at));
  if (at === 0 || !startxref) throw new Error('paddedPdf: no cross-reference table found');
  const line = `%${'.'.repeat(126)}\n`;
  const padding = line.repeat(Math.ceil(bytes / line.length));
  const tail = text
    .slice(at)
    .replace(/startxref\s+\d+/, `startxref\n${Number(startxref[1]) + padding.length}`);
  return Buffer.from(text.slice(0, at) + padding + tail, 'latin1');
}

// ---- a slow link --------------------------------------------------------------------------

/**
 * A TCP proxy to the stack that passes what the browser sends at `bytesPerSecond` (answers
 * at full speed). Chromium reports upload progress by what it has written to the socket, so
 * a slow reader on the other end is what makes progress visible; the browser's own network
 * throttling only delays the request as a whole.
 */
export async function slowUploadProxy(
  bytesPerSecond: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(stack().baseUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      client.pause();
      setTimeout(() => client.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    client.on('end', () => upstream.end());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

// ---- the page -----------------------------------------------------------------------------

/** Logs in on the login page (already open) with the keyboard, as a user would. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  const form = page.locator('.login');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByLabel('Password').press('Enter');
  await expect.poll(() => page.locator('.who-name').textContent()).toContain(username);
}

/** Logs in whatever the page's language: the login form's two fields, then Enter. */
export async function logInAsAdmin(page: Page): Promise<void> {
  await page.locator('.login input').nth(0).fill(stack().admin.username);
  await page.locator('.login input').nth(1).fill(stack().admin.password);
  await page.locator('.login input').nth(1).press('Enter');
  await expect
    .poll(() => page.locator('.who-name').textContent())
    .toContain(stack().admin.username);
}

/**
 * A file row's action kept under its More menu (a row shows only its one or two most used):
 * opens the menu by its button, named as the page names it ("More actions for a.pdf",
 * "更多操作：a.pdf"), and gives the menu's item named `name`, to click.
 */
export async function moreItem(row: Locator, more: string, name: string): Promise<Locator> {
  await row.getByRole('button', { name: more }).click();
  return row.getByRole('menu', { name: more }).getByRole('menuitem', { name });
}

/** Uploads with the file picker, opened by its button (named in the page's language). */
export async function chooseFiles(
  page: Page,
  buttonName: string,
  files: FilePayload[],
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: buttonName }).click();
  await (await chooser).setFiles(files);
}

/** Asks a question the way a user does: type it, press Enter (the box named in the page's language). */
export async function ask(page: Page, question: string, label = 'Your question'): Promise<void> {
  const box = page.getByLabel(label);
  await box.fill(question);
  await box.press('Enter');
}

/** The last answer on the page, once it has ended (done, refused, stopped or failed). */
export async function lastAnswerWhenEnded(page: Page) {
  const answer = page.locator('.turn').last().locator('.answer');
  await expect
    .poll(() => answer.getAttribute('data-state'), { timeout: 30_000 })
    .toMatch(/done|refused|stopped|failed/);
  return answer;
}

/**
 * Starts a new conversation (the chat header's button, named in the page's language): a
 * question asked in the open one is a follow-up, rewritten with that conversation's terms.
 */
export async function newConversation(page: Page, name = 'New conversation'): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
  await expect.poll(() => page.locator('.turn').count()).toBe(0);
}
