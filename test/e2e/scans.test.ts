// A scanned PDF in the web app: its row says how much of it OCR read (and that quotes are to be
// checked against the original), a source read by OCR carries an OCR badge that says so, in
// the reader's language, and opens the scan in the viewer with the passage boxed where OCR
// read it. The screens stay clean for axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { scannedFixture } from '../../dev/fixtures/scanned-pdfs';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import {
  adminToken,
  ask,
  callApi,
  deleteFileViaApi,
  lastAnswerWhenEnded,
  logInAsAdmin,
  stack,
  unique,
  uploadViaApi,
} from './helpers';

const name = `${unique('扫描件')}.pdf`;
let browser: Browser;
let fileId = '';
let question = '';

beforeAll(async () => {
  browser = await launchBrowser();
  const scan = await scannedFixture('policy-scan-2');
  // Words of the scan's first page that only it has: the question the answer is drawn from.
  question = scan.expected[0]!.replace(/\s+/g, '').slice(60, 80);
  fileId = (await uploadViaApi(await adminToken(), name, scan.bytes)).id;
}, 180_000);

/** The passage of the scan a keyword search finds first for `text`. */
async function passageOf(text: string): Promise<{ id: number; page: number }> {
  const res = await callApi<{ data: { id: number; page: number }[] }>(
    `/moduleknowledge/query?text=${encodeURIComponent(text)}&file_id=${fileId}&mode=keyword&top=1`,
    { token: await adminToken() },
  );
  expect(res.status).toBe(200);
  return res.body.data[0]!;
}

afterAll(async () => {
  await browser?.close();
  if (fileId) await deleteFileViaApi(await adminToken(), fileId);
});

const LANGUAGES = [
  {
    language: 'English',
    locale: 'en-GB',
    note: /^OCR 2 pages read by OCR \(confidence \d+%\): check quotes against the original\.$/,
    badge: 'Text read by OCR from a scanned page: check it against the original.',
    questionBox: 'Your question',
  },
  {
    language: 'Chinese',
    locale: 'zh-CN',
    note: /^OCR 2 页为 OCR 识别（置信度 \d+%），引用前请与原件核对。$/,
    badge: '该页文字由扫描件 OCR 识别，请与原件核对。',
    questionBox: '您的问题',
  },
] as const;

describe.each(LANGUAGES)('a scanned PDF, in $language', (texts) => {
  it('says OCR read it, and marks the sources it gave', async () => {
    const { page, context, errors } = await openPage(
      browser,
      stack().baseUrl,
      'desktop',
      texts.locale,
    );
    try {
      await page.goto('/');
      await logInAsAdmin(page);
      const row = page.locator('.file', { hasText: name });
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('ready');
      expect((await row.locator('.file-source-note').textContent())?.trim()).toMatch(texts.note);

      await row.getByRole('checkbox').check();
      await ask(page, question, texts.questionBox);
      const answer = await lastAnswerWhenEnded(page);
      expect(await answer.getAttribute('data-state')).toBe('done');
      const badge = page.locator('.turn').last().locator('.source-ocr').first();
      await expect.poll(() => badge.getAttribute('title')).toBe(texts.badge);
      expect(await seriousViolations(page), 'an OCR note and badge').toEqual([]);
      await screenshot(page, `scan-desktop-${texts.locale}`);

      // The source opens the scan at its page, at the passage of the page the answer's
      // sentence came from (the offline model quotes it), boxed where OCR read it; the note
      // says the text was read by OCR, and speaks of the boxes.
      const source = page.locator('.turn').last().locator('.source-link').first();
      expect(await source.getAttribute('href')).toMatch(/[?&]chunk=\d+/);
      await source.click();
      const viewer = page.getByRole('dialog');
      await expect.poll(() => viewer.locator('.viewer-note').count()).toBe(1);
      await expect.poll(() => viewer.locator('mark.passage-box').count()).toBeGreaterThan(0);
      expect(await viewer.locator('.viewer-note').textContent()).toMatch(/方框|boxes/);
      await page.keyboard.press('Escape');
      // A retrieved passage opens boxed where OCR read it, over the page's image.
      const hit = await passageOf(question);
      await page.evaluate(
        (link) => (location.hash = link),
        `#/doc/${fileId}?page=${hit.page}&chunk=${hit.id}`,
      );
      await expect.poll(() => viewer.locator('mark.passage-box').count()).toBeGreaterThan(0);
      expect(await viewer.locator('.viewer-note').textContent()).toMatch(/方框|boxes/);
      const box = await viewer.locator('mark.passage-box').first().boundingBox();
      const drawn = await viewer.locator('.pdf-page canvas').boundingBox();
      expect(box!.width).toBeGreaterThan(20);
      expect(box!.x).toBeGreaterThanOrEqual(drawn!.x);
      expect(box!.x + box!.width).toBeLessThanOrEqual(drawn!.x + drawn!.width + 1);
      expect(await seriousViolations(page), 'a scan in the viewer').toEqual([]);
      await screenshot(page, `viewer-scan-desktop-${texts.locale}`);
      // The page opened whole (as a chat about chosen files links a page it read whole): no
      // passage, no boxes, and the note claims none (with boxes it goes on "OCR: the boxes…").
      await page.evaluate((link) => (location.hash = link), `#/doc/${fileId}?page=${hit.page}`);
      await expect
        .poll(() => viewer.locator('.viewer-note').textContent())
        .toMatch(/read by OCR\. Check|OCR 识别。请对照图像/);
      expect(await viewer.locator('.viewer-note').textContent()).not.toMatch(/方框|boxes/);
      expect(await viewer.locator('mark.passage-box').count()).toBe(0);
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the note on a phone', async () => {
    const { page, context } = await openPage(browser, stack().baseUrl, 'phone', texts.locale);
    try {
      await page.goto('/');
      await logInAsAdmin(page);
      // One pane at a time: the files are behind their tab.
      await page.locator('.pane-tabs button').nth(1).click();
      const note = page.locator('.file', { hasText: name }).locator('.file-source-note');
      await note.scrollIntoViewIfNeeded();
      expect((await note.textContent())?.trim()).toMatch(texts.note);
      await screenshot(page, `scan-phone-${texts.locale}`);
    } finally {
      await context.close();
    }
  });
});
