// The app in Chinese: chosen from the browser's language, switched and remembered, errors
// translated by their code (an unknown code shows the service's words), Chinese dates and
// counts, a Chinese question answered; and the README's screenshots in both languages.
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHINESE_POLICY_FIXTURE, ENGLISH_POLICY_FIXTURE } from '../../dev/fixtures/pdf-builder';
import { launchBrowser, openPage, screenshot, type Session, type ViewportName } from './browser';
import {
  adminToken,
  deleteFileViaApi,
  lastAnswerWhenEnded,
  newConversation,
  listFiles,
  pdfFile,
  PNG,
  stack,
  unique,
} from './helpers';

const DOCS = path.resolve(import.meta.dirname, '../../docs');
const tag = unique('zh');
const CHINESE = `青禾市公共服务政策-${tag}.pdf`;
const ENGLISH = `riverton-charter-${tag}.pdf`;

let browser: Browser;
let session: Session;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  session = await openPage(browser, stack().baseUrl, 'desktop', 'zh-CN');
  page = session.page;
});

afterAll(async () => {
  await browser?.close();
  const token = await adminToken();
  for (const file of await listFiles(token)) {
    if (file.name.includes(tag)) await deleteFileViaApi(token, file.id);
  }
});

/** Logs in with the Chinese labels. */
async function logInZh(on: Page) {
  await on.getByLabel('用户名').fill(stack().admin.username);
  await on.getByLabel('密码').fill(stack().admin.password);
  await on.getByLabel('密码').press('Enter');
  await expect.poll(() => on.locator('.who-name').textContent()).toContain(stack().admin.username);
}

async function upload(on: Page, files: Parameters<typeof pdfFile>[], chooseLabel: string) {
  const chooser = on.waitForEvent('filechooser');
  await on.getByRole('button', { name: chooseLabel }).click();
  await (await chooser).setFiles(files.map(([name, pages]) => pdfFile(name, pages)));
}

/** Asks in whatever language the page is in: type into the question box, press Enter. */
async function ask(on: Page, question: string) {
  await on.locator('textarea').fill(question);
  await on.locator('textarea').press('Enter');
}

/** The same text with this run's tag, so the upload is never a duplicate of another test's. */
const tagged = (pages: readonly string[]) => pages.map((text) => `${text}\n${tag}`);

describe('a Chinese browser', () => {
  it('gets the app in Chinese, <html lang> included', async () => {
    await page.goto('/');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('知识库问答');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await page.title()).toBe('登录 · 知识库问答');
    // The page's own placeholder, shown until the app starts, is gone once it has.
    expect(await page.locator('#app > .boot').count()).toBe(0);
    expect(await page.locator('#app').textContent()).not.toContain('Loading');
    await page.getByLabel('用户名').fill(stack().admin.username);
    await page.getByLabel('密码').fill('not-the-password');
    await page.getByRole('button', { name: '登录' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('用户名或密码错误，或该账号已被停用。');
  });

  it('switches to English with the visible control, remembers it, and switches back', async () => {
    await page.getByRole('button', { name: 'English' }).click();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Knowledge-base chat');
    // What was on screen follows: the error shown a moment ago too.
    expect(await page.getByRole('alert').textContent()).toBe(
      'Wrong username or password, or the account is disabled.',
    );
    expect(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await page.evaluate(() => localStorage.getItem('kbchat.locale'))).toBe('en');
    await page.reload();
    await expect.poll(() => page.getByLabel('Username').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: '中文' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('知识库问答');
  });

  it('uploads in Chinese: results, dates and refusals by their code', async () => {
    await logInZh(page);
    expect(await page.locator('.topbar .badge').textContent()).toBe('超级管理员');
    await upload(
      page,
      [
        [ENGLISH, tagged(ENGLISH_POLICY_FIXTURE.pages)],
        [CHINESE, tagged(CHINESE_POLICY_FIXTURE.pages)],
      ],
      '选择文件…',
    );
    const english = page.locator('.upload', { hasText: ENGLISH });
    await expect.poll(() => english.getAttribute('data-state')).toBe('added');
    expect(await english.locator('.upload-status').textContent()).toBe('已添加：3 页，4 个片段。');
    await expect
      .poll(() => page.locator('.upload', { hasText: CHINESE }).getAttribute('data-state'))
      .toBe('added');
    const row = page.locator('.file', { hasText: ENGLISH });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('.file-meta').textContent()).toMatch(/3 页 · 4 个片段 · 2\.\d KB/);
    expect(await row.locator('time').textContent()).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日/);

    // The service's refusal, translated by its code (unsupported_format), not by its English
    // words: an image, whatever its name says.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: '选择文件…' }).click();
    await (
      await chooser
    ).setFiles([{ name: 'notes.pdf', mimeType: 'application/pdf', buffer: PNG }]);
    const notes = page.locator('.upload', { hasText: 'notes.pdf' });
    await expect.poll(() => notes.getAttribute('data-state')).toBe('failed');
    expect(await notes.locator('.upload-status').textContent()).toBe(
      '该文件不是服务能够读取的文档。请上传 PDF、Word 文档（.docx）、HTML、Markdown 或纯文本文件。旧版 Word（.doc）、WPS（.wps）或 OFD 文件，请先另存为 .docx 或 PDF 再上传。',
    );
    await page.getByRole('button', { name: '清除已完成的上传' }).click();
  });

  it('answers a Chinese question, with Chinese labels, and keeps it when switching language', async () => {
    await page.getByRole('checkbox', { name: CHINESE }).check();
    await expect
      .poll(() => page.locator('.scope').textContent())
      .toContain(`仅在此文件中查找：${CHINESE}`);
    await ask(page, '银杉卡有什么优惠？');
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('done');
    const text = await answer.locator('.markdown').textContent();
    expect(text).toContain('银杉卡');
    expect(await answer.locator('.speaker').textContent()).toBe('回答');
    // Limited to a file that fits the context budget: its pages are given whole, no similarity.
    expect(await answer.locator('.source-meta').first().textContent()).toMatch(/^第 \d+ 页$/);
    expect(await page.locator('.chat-panel [role="status"]').textContent()).toMatch(
      /^回答已完成，共 \d+ 处出处。$/,
    );
    await page.mouse.move(0, 0);
    await readmeScreenshot(page, 'desktop', 'zh');

    await page.getByRole('button', { name: 'English' }).click();
    expect(await answer.locator('.speaker').textContent()).toBe('Answer');
    expect(await answer.locator('.source-meta').first().textContent()).toMatch(/^page \d+$/);
    expect(await answer.locator('.markdown').textContent()).toBe(text);
    expect(await page.locator('.scope').textContent()).toContain(`Searching only: ${CHINESE}`);
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('button', { name: '在全部文件中查找' }).click();
  });

  it('explains a refusal in Chinese: the closest passage and the similarity an answer needs', async () => {
    // An unrelated question: asked in a new conversation, not as a follow-up of the last.
    await newConversation(page, '新对话');
    await ask(page, '斑马量子火山在哪里喷发？');
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('refused');
    expect(await answer.locator('.answer-notice.refusal p').first().textContent()).toBe(
      '非常抱歉，未能检索到相关信息，无法回答。',
    );
    await expect
      .poll(() => answer.locator('.refusal-reason p').first().textContent())
      .toMatch(/^找到的最接近的片段与问题关联不够，未据此回答： .+\.pdf · (.+ · )?第 \d+ 页$/);
    expect(await answer.locator('details.refusal-scores').textContent()).toMatch(
      /相似度为 0\.[0-4]\d，回答需要至少 0\.50/,
    );
    expect(await answer.getByRole('button', { name: /^只在 .+\.pdf 中提问$/ }).isVisible()).toBe(
      true,
    );

    // Asked in English on a Chinese page: the service words it in English, the page in Chinese
    // (by the message's code).
    await newConversation(page, '新对话');
    await ask(page, 'zebra quantum volcano');
    const english = await lastAnswerWhenEnded(page);
    expect(await english.locator('.answer-notice.refusal p').first().textContent()).toBe(
      '非常抱歉，未能检索到相关信息，无法回答。',
    );
  });

  it('shows an unknown error code in the service’s own words', async () => {
    await page.route('**/moduleknowledge/files?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          code: 'brand_new_code',
          detail: 'A brand-new failure.',
        }),
      }),
    );
    await page.reload();
    await expect
      .poll(() => page.locator('.files-panel .list-notice').textContent())
      .toBe('无法加载文件列表：A brand-new failure.');
    await page.unroute('**/moduleknowledge/files?*');
    // A known code in the same place is translated.
    await page.route('**/moduleknowledge/files?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ status: 503, code: 'database_unavailable', detail: 'x' }),
      }),
    );
    await page.reload();
    await expect
      .poll(() => page.locator('.files-panel .list-notice').textContent())
      .toBe('无法加载文件列表：数据库暂时不可用，请稍后再试。');
    await page.unroute('**/moduleknowledge/files?*');
    expect(session.errors.filter((e) => !e.includes('503'))).toEqual([]);
  });
});

describe('the README’s screenshots', () => {
  it.each([
    ['phone', 'zh-CN', 'zh'],
    ['phone', 'en-GB', 'en'],
    ['desktop', 'en-GB', 'en'],
  ] as const)('%s in %s', async (viewport, locale, name) => {
    const shot = await openPage(browser, stack().baseUrl, viewport, locale);
    try {
      await shot.page.goto('/');
      if (locale === 'zh-CN') await logInZh(shot.page);
      else {
        await shot.page.getByLabel('Username').fill(stack().admin.username);
        await shot.page.getByLabel('Password').fill(stack().admin.password);
        await shot.page.getByLabel('Password').press('Enter');
      }
      await expect.poll(() => shot.page.locator('textarea').isVisible()).toBe(true);
      await ask(
        shot.page,
        locale === 'zh-CN' ? '银杉卡有什么优惠？' : 'What does the Marrowbank refund rule say?',
      );
      expect(await (await lastAnswerWhenEnded(shot.page)).getAttribute('data-state')).toBe('done');
      await shot.page.mouse.move(0, 0);
      await readmeScreenshot(shot.page, viewport, name);
      expect(
        await shot.page.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(viewport === 'phone' ? 390 : 1280);
      expect(shot.errors).toEqual([]);
    } finally {
      await shot.context.close();
    }
  });
});

/**
 * Saves the screenshot, and copies it to docs/ when missing there or on request
 * (UPDATE_README_SCREENSHOT=1), so that test runs do not rewrite committed files each time.
 */
async function readmeScreenshot(on: Page, viewport: ViewportName, language: string) {
  const name = `${viewport}-${language}`;
  const shot = await screenshot(on, `readme-${name}`);
  const target = path.join(DOCS, `screenshot-${name}.png`);
  if (process.env.UPDATE_README_SCREENSHOT || !existsSync(target)) {
    await mkdir(DOCS, { recursive: true });
    await copyFile(shot, target);
  }
}
