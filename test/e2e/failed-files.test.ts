// A file whose ingestion fails (the embedding model stays away) says why in the reader's
// language, by its error code, and offers Retry and Delete; once the model is back, Retry
// takes it to ready. The files screen stays clean for axe with failed and processing rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { focusIsVisible, seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import {
  adminToken,
  chooseFiles,
  deleteFileViaApi,
  embeddingsFail,
  embeddingsSlow,
  listFiles,
  logInAsAdmin,
  modelControl,
  stack,
  unique,
} from './helpers';

const tag = unique('failed');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await modelControl('reset');
  await browser?.close();
  const token = await adminToken();
  for (const file of await listFiles(token)) {
    if (file.name.includes(tag)) await deleteFileViaApi(token, file.id);
  }
});

const LANGUAGES = [
  {
    language: 'English',
    locale: 'en-GB',
    name: `library-hours-${tag}.pdf`,
    text: 'The Larchmont library opens at nine and closes at six on weekdays.',
    choose: 'Choose documents…',
    modelDown: 'The language model is unavailable right now. Try again later.',
    failed: 'Failed',
    notSearchable: 'Not searchable: it failed to be read or indexed. Retry it or delete it.',
    retry: (name: string) => `Retry ${name}`,
    remove: (name: string) => `Delete ${name}`,
    more: (name: string) => `More actions for ${name}`,
    retrying: (name: string) => `${name} is being processed again.`,
    added: /^Added: 1 page, 1 chunk\.$/,
  },
  {
    language: 'Chinese',
    locale: 'zh-CN',
    name: `图书馆开放时间-${tag}.pdf`,
    text: '青禾市图书馆工作日上午九点开门，下午六点闭馆。',
    choose: '选择文件…',
    modelDown: '语言模型暂时不可用，请稍后再试。',
    failed: '失败',
    notSearchable: '不可检索：读取或建立索引失败。请重试或将其删除。',
    retry: (name: string) => `重试 ${name}`,
    remove: (name: string) => `删除 ${name}`,
    more: (name: string) => `更多操作：${name}`,
    retrying: (name: string) => `正在重新处理 ${name}。`,
    added: /^已添加：1 页，1 个片段。$/,
  },
] as const;

describe.each(LANGUAGES)('a file that fails, in $language', (texts) => {
  it('says why, offers Retry and Delete, and is ready after Retry once the model is back', async () => {
    const { page, context, errors } = await openPage(
      browser,
      stack().baseUrl,
      'desktop',
      texts.locale,
    );
    try {
      await page.goto('/');
      await logInAsAdmin(page);
      await embeddingsFail();
      await chooseFiles(page, texts.choose, [
        {
          name: texts.name,
          mimeType: 'application/pdf',
          buffer: Buffer.from(makeTextPdf([`${texts.text}\n${tag}`])),
        },
      ]);

      // The upload row and the list both say why, by the error's code.
      const upload = page.locator('.upload', { hasText: texts.name });
      await expect
        .poll(() => upload.getAttribute('data-state'), { timeout: 30_000 })
        .toBe('failed');
      expect(await upload.locator('.upload-status').textContent()).toBe(texts.modelDown);
      const row = page.locator('.file', { hasText: texts.name });
      await expect.poll(() => row.getAttribute('data-status')).toBe('failed');
      expect(await row.locator('.file-badge').textContent()).toBe(texts.failed);
      expect(await row.locator('.file-status').textContent()).toBe(texts.modelDown);
      expect(await row.getByRole('checkbox').isDisabled()).toBe(true);
      expect(await row.locator('.file-name').getAttribute('title')).toBe(texts.notSearchable);
      expect(await row.getByRole('button', { name: texts.remove(texts.name) }).isVisible()).toBe(
        true,
      );
      const retry = row.getByRole('button', { name: texts.retry(texts.name) });
      expect(await retry.isVisible()).toBe(true);
      expect(await seriousViolations(page), 'a failed row').toEqual([]);
      await screenshot(page, `failed-file-${texts.locale}`);

      // The model is back (slow, so that the file can be seen on its way again).
      await modelControl('reset');
      await embeddingsSlow(1_500);
      // By keyboard: the focus is on Retry when it goes away.
      await retry.focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.locator('.files-panel > [role="status"]').textContent())
        .toBe(texts.retrying(texts.name));
      await expect.poll(() => row.getAttribute('data-status')).toMatch(/^(queued|processing)$/);
      expect(await retry.isVisible()).toBe(false);
      // The focus left the Retry button for the row's More button, not for the page (Delete,
      // beside Retry while the file had failed, is under More once it is on its way again).
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        texts.more(texts.name),
      );
      expect(await focusIsVisible(page)).toBe(true);
      expect(await seriousViolations(page), 'a processing row').toEqual([]);

      await expect.poll(() => row.getAttribute('data-status'), { timeout: 60_000 }).toBe('ready');
      expect(await row.getByRole('checkbox').isDisabled()).toBe(false);
      // The upload row followed the file back to ready.
      await expect.poll(() => upload.getAttribute('data-state')).toBe('added');
      expect(await upload.locator('.upload-status').textContent()).toMatch(texts.added);
      expect(errors).toEqual([]);
    } finally {
      await modelControl('reset');
      await context.close();
    }
  });
});
