// The document viewer: a citation opens the original inside the app at the cited page, the
// passage marked in the page's text layer and scrolled into view, fetched by range requests
// (a fraction of the file); Escape returns to the citation; a Markdown file shows its section
// with the passage marked; someone who may not read the file sees not found. Both languages,
// desktop and phone, axe clean, and no CSP or Trusted Types violation on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { makeManyPagesPdf } from '../../dev/fixtures/pdf-builder';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import {
  adminToken,
  ask,
  callApi,
  createUser,
  deleteFileViaApi,
  lastAnswerWhenEnded,
  logIn,
  logInAsAdmin,
  stack,
  unique,
  uploadViaApi,
} from './helpers';

const PAGES = 34;
const pdfName = `${unique('register')}.pdf`;
// About 1.5 MB, as a real 34-page notice with its images would be: no page draws the ballast.
const pdfBytes = makeManyPagesPdf(PAGES, { ballastBytes: 1_500_000 });
const mdName = `${unique('补贴办法')}.md`;
const markdown = [
  '# 青禾市创业补贴办法',
  '',
  '## 第一章 总则',
  '',
  '第一条 为支持创业带动就业，制定本办法。',
  '',
  '## 第二章 补贴标准',
  '',
  '第五条 首次创业且正常经营满一年的，给予一次性创业补贴五千元。',
  '',
  '第六条 带动就业三人以上的，每多带动一人，再给予两千元补贴，最高不超过两万元。',
].join('\n');

let browser: Browser;
let pdfId = '';
let mdId = '';

interface Hit {
  id: number;
  file_id: string;
  page: number;
  content: string;
}

async function passage(token: string, text: string, fileId: string): Promise<Hit> {
  const res = await callApi<{ data: Hit[] }>(
    `/moduleknowledge/query?text=${encodeURIComponent(text)}&file_id=${fileId}&mode=keyword&top=1`,
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0]!;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const token = await adminToken();
  pdfId = (await uploadViaApi(token, pdfName, pdfBytes)).id;
  mdId = (await uploadViaApi(token, mdName, new TextEncoder().encode(markdown))).id;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  const token = await adminToken();
  for (const id of [pdfId, mdId]) if (id) await deleteFileViaApi(token, id);
});

/** Bytes of the original the page fetched (range answers included), while `run` runs. */
async function originalBytes(page: Page, run: () => Promise<void>): Promise<number> {
  let bytes = 0;
  const pending: Promise<void>[] = [];
  const count = (response: Response) => {
    if (!response.url().includes('/moduleknowledge/download')) return;
    pending.push(
      response.body().then(
        (body) => void (bytes += body.length),
        () => undefined,
      ),
    );
  };
  page.on('response', count);
  await run();
  page.off('response', count);
  await Promise.all(pending);
  return bytes;
}

describe('the document viewer', () => {
  it('opens a citation of page 30 of 34 at its passage, marked, by range requests', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop', 'en-GB');
    try {
      await page.goto('/');
      await logInAsAdmin(page);
      await ask(page, `What is entry reference RP-30-${PAGES}?`);
      const answer = await lastAnswerWhenEnded(page);
      expect(await answer.getAttribute('data-state')).toBe('done');
      const source = answer.locator('.source-link', { hasText: pdfName }).first();
      await expect
        .poll(() => source.getAttribute('href'))
        .toMatch(new RegExp(`^#/doc/${pdfId}\\?page=30&chunk=\\d+$`));

      const viewer = page.getByRole('dialog');
      const marks = viewer.locator('.textLayer mark.passage');
      let clicked = 0;
      const fetched = await originalBytes(page, async () => {
        clicked = Date.now();
        await source.click();
        await expect.poll(() => marks.count(), { timeout: 15_000 }).toBeGreaterThan(0);
      });
      const shownAfter = Date.now() - clicked;
      console.log(
        `viewer: page 30 of ${PAGES} shown with its passage marked ${shownAfter} ms after the click; ` +
          `${fetched} of ${pdfBytes.length} bytes of the original fetched (${((100 * fetched) / pdfBytes.length).toFixed(1)}%)`,
      );
      // Range requests: the cross-reference table and one page's objects, not the file.
      expect(fetched).toBeGreaterThan(0);
      expect(fetched).toBeLessThan(pdfBytes.length / 4);

      await expect
        .poll(() => viewer.locator('.viewer-pages span').textContent())
        .toBe(`Page 30 of ${PAGES}`);
      const marked = (await marks.allTextContents()).join('');
      expect(marked).toContain(`RP-30-${PAGES}`);
      // The marked words are the passage's own.
      const quoted = (await viewer.locator('.viewer-passage blockquote').textContent()) ?? '';
      expect(quoted.replace(/\s+/g, '')).toContain(marked.replace(/\s+/g, '').slice(0, 40));
      // Scrolled into view.
      const inView = await marks.first().evaluate((mark) => {
        const box = mark.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
      expect(inView).toBe(true);
      expect(await seriousViolations(page), 'the viewer').toEqual([]);
      await screenshot(page, 'viewer-pdf-desktop-en-GB');

      // Next page, then Escape: back to the chat, the focus on the citation.
      await viewer.getByRole('button', { name: 'Next page' }).click();
      await expect
        .poll(() => viewer.locator('.viewer-pages span').textContent())
        .toBe(`Page 31 of ${PAGES}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => viewer.count()).toBe(0);
      expect(await page.evaluate(() => location.hash)).not.toMatch(/^#\/doc\//);
      expect(await source.evaluate((link) => link === document.activeElement)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('opens an [n] citation of the answer in the viewer', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop', 'en-GB');
    try {
      await page.goto('/');
      await logInAsAdmin(page);
      await ask(page, `What is entry reference RP-12-${PAGES}?`);
      const answer = await lastAnswerWhenEnded(page);
      const citation = answer.locator('.markdown a.citation[href]').first();
      await expect.poll(() => citation.count()).toBe(1);
      const label = (await citation.getAttribute('title')) ?? '';
      expect(label).toMatch(/^Source \d+: /);
      await citation.click();
      const viewer = page.getByRole('dialog');
      await expect.poll(() => viewer.locator('mark.passage').count()).toBeGreaterThan(0);
      expect(await viewer.locator('h2').textContent()).toBe(
        label.replace(/^Source \d+: (.*), page \d+$/, '$1'),
      );
      await page.keyboard.press('Escape');
      expect(await citation.evaluate((link) => link === document.activeElement)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows a Markdown section with the passage marked, in Chinese on a phone', async () => {
    const hit = await passage(await adminToken(), '一次性创业补贴', mdId);
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'phone', 'zh-CN');
    try {
      await page.goto('/');
      await logInAsAdmin(page);
      await page.goto(`/#/doc/${mdId}?page=${hit.page}&chunk=${hit.id}`);
      const viewer = page.getByRole('dialog');
      const mark = viewer.locator('.text-page mark.passage');
      await expect.poll(() => mark.count()).toBe(1);
      expect((await mark.textContent())?.replace(/\s+/g, '')).toContain('一次性创业补贴五千元');
      expect(await viewer.getByRole('button', { name: '关闭' }).count()).toBe(1);
      expect(await seriousViolations(page), 'the viewer on a phone').toEqual([]);
      await screenshot(page, 'viewer-markdown-phone-zh-CN');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('tells someone who may not read the file that it is not there', async () => {
    const token = await adminToken();
    const hit = await passage(token, `RP-5-${PAGES}`, pdfId);
    // A collection of the admin's own that the other user is no member of.
    const created = await callApi<{ data: { id: string } }>('/moduleknowledge/collection', {
      token,
      json: { name: unique('private') },
    });
    const moved = await callApi('/moduleknowledge/file_move', {
      token,
      json: { id: pdfId, collection_id: created.body.data.id },
    });
    expect(moved.status).toBe(200);
    const other = await createUser();
    const { page, context } = await openPage(browser, stack().baseUrl, 'desktop', 'en-GB');
    try {
      await page.goto('/');
      await logIn(page, other.username, other.password);
      await page.goto(`/#/doc/${pdfId}?page=5&chunk=${hit.id}`);
      const viewer = page.getByRole('dialog');
      await expect
        .poll(() => viewer.getByRole('alert').textContent())
        .toBe('This document does not exist, or you may not read it.');
      expect(await viewer.locator('canvas, mark').count()).toBe(0);
    } finally {
      await context.close();
      await callApi('/moduleknowledge/file_move', {
        token,
        json: { id: pdfId, collection_id: '00000000-0000-0000-0000-000000000000' },
      });
    }
  }, 60_000);
});
