// The files panel and the chunks screen in a real browser against the dev stack: a keeper
// uploads a document into the shared collection (which other tests fill with files), finds it
// by name, opens its chunks, corrects a chunk's text and switches it off; the API's search then
// finds the corrected text, and once the chunk is off, no longer. Axe-clean, in English and on
// a phone in Chinese.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import {
  adminToken,
  callApi,
  deleteFileViaApi,
  logInAsAdmin,
  pdfFile,
  SHARED_COLLECTION_ID,
  stack,
  unique,
} from './helpers';

let browser: Browser;
let token = '';
let fileId = '';
const NAME = `${unique('keeping')}.pdf`;
const WORD = unique('Wombat');
const CORRECTED = unique('Numbat');

beforeAll(async () => {
  browser = await launchBrowser();
  token = await adminToken();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (fileId) await deleteFileViaApi(token, fileId);
});

/** The ids of the chunks a keyword search of the shared collection finds for `text`. */
async function found(text: string): Promise<number[]> {
  const res = await callApi<{ data: { id: number }[] }>(
    `/moduleknowledge/query?mode=keyword&collection_id=${SHARED_COLLECTION_ID}&text=${encodeURIComponent(text)}`,
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((result) => result.id);
}

describe('keeping files', () => {
  it('uploads, finds the file by name, corrects a chunk and switches it off', async () => {
    const { page, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    // The size the panel was found wanting at (a permanent dropzone left room for ~3 files).
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    await logInAsAdmin(page);

    const file = pdfFile(NAME, [
      `${WORD} general provisions: who these rules apply to.`,
      `${WORD} annual leave: 25 working days after ten years of service.`,
    ]);
    // The panel takes files once it knows the collection they go to (its dropzone shows).
    await page.locator('.dropzone:not([hidden])').waitFor();
    await page
      .locator('.dropzone input[type=file]')
      .setInputFiles({ name: NAME, mimeType: file.mimeType, buffer: Buffer.from(file.buffer) });
    // Once ready it is listed once: its own row (the upload's row gives way).
    const row = page.locator('.file-list li.file', { hasText: NAME });
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 60_000 }).toBe('ready');
    fileId = (await row.getAttribute('data-file-id'))!;
    await expect
      .poll(() => page.locator('.upload:not([hidden])', { hasText: NAME }).count())
      .toBe(0);

    await page.getByRole('searchbox', { name: 'Search' }).fill(NAME.slice(0, 12));
    await expect.poll(() => page.locator('.file-list li.file').count()).toBe(1);
    await expect.poll(() => page.locator('.files-panel .count').textContent()).toBe('1 file found');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'keeping-files-desktop-en');

    await page.getByRole('link', { name: `Chunks of ${NAME}` }).click();
    await page.getByRole('heading', { name: `Chunks of ${NAME}` }).waitFor();
    const chunk = page.locator('.chunk-list li.chunk', { hasText: 'annual leave' });
    await chunk.waitFor();
    expect(await chunk.textContent()).toContain('Page 2');
    expect(await seriousViolations(page)).toEqual([]);

    const label = (await chunk.locator('.chunk-number').textContent())!;
    await chunk.getByRole('button', { name: `Edit chunk ${label}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Text' }).fill(`${CORRECTED}: 30 working days.`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => chunk.locator('.chunk-text').textContent())
      .toBe(`${CORRECTED}: 30 working days.`);
    expect(await chunk.locator('.chunk-edited').textContent()).toMatch(/^Edited by admin at /);
    expect(await chunk.locator('.chunk-original').textContent()).toContain('annual leave');
    const id = Number(await chunk.getAttribute('data-chunk-id'));
    expect(await found(CORRECTED)).toContain(id);

    await chunk.getByRole('button', { name: `Switch off chunk ${label}` }).click();
    await expect.poll(() => chunk.getAttribute('data-enabled')).toBe('false');
    expect(await chunk.locator('.badge.off').textContent()).toBe('Off');
    expect(await found(CORRECTED)).not.toContain(id);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'keeping-chunks-desktop-en');
    expect(errors).toEqual([]);
  }, 120_000);

  // After the first: the file is there, its chunk corrected and switched off.
  it('reads the chunks on a phone, in Chinese, axe-clean', async () => {
    expect(fileId).not.toBe('');
    const { page, errors } = await openPage(browser, stack().baseUrl, 'phone', 'zh-CN');
    await page.goto('/');
    await logInAsAdmin(page);
    await page.goto(`/#/chunks/${fileId}`);
    await page.getByRole('heading', { name: `片段：${NAME}` }).waitFor();
    const chunk = page.locator('.chunk-list li.chunk', { hasText: CORRECTED });
    expect(await chunk.locator('.badge.off').textContent()).toBe('已停用');
    const box = (await chunk.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'keeping-chunks-phone-zh');
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows the files panel and the chunks screen at both sizes in both languages', async () => {
    expect(fileId).not.toBe('');
    for (const [size, locale] of [
      ['desktop', 'zh-CN'],
      ['phone', 'en-GB'],
    ] as const) {
      const { page, errors } = await openPage(browser, stack().baseUrl, size, locale);
      if (size === 'desktop') await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto('/');
      await logInAsAdmin(page);
      if (size === 'phone') await page.locator('.pane-tabs button').nth(1).click();
      await page.locator('.files-toolbar').waitFor();
      await page.locator('.file-list li.file').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `keeping-files-${size}-${locale}`);
      await page.goto(`/#/chunks/${fileId}`);
      await page.locator('.chunk-list li.chunk').first().waitFor();
      await screenshot(page, `keeping-chunks-${size}-${locale}`);
      expect(errors).toEqual([]);
    }
  }, 90_000);
});
