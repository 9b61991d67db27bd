// The API reference pages in Chromium: Swagger UI from this origin under the pages' CSP,
// built from the same OpenAPI documents the modules serve, and "try it" with a bearer token.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { adminToken, stack } from './helpers';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('the API reference', () => {
  it.each([
    ['/docs', 'kbchat: knowledge-base chat', 18],
    ['/moduleauth/docs', 'auth', 11],
    ['/moduleknowledge/docs', 'knowledge', 6],
    ['/modulechat/docs', 'chat', 2],
  ])(
    '%s shows every operation of its document, loading nothing from elsewhere',
    async (path, title, atLeast) => {
      const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol !== 'data:' && url.origin !== stack().baseUrl)
          elsewhere.push(request.url());
      });
      try {
        await page.goto(path);
        await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThanOrEqual(atLeast);
        expect(await page.locator('.info .title').textContent()).toContain(title);
        // The bearer scheme of the document: an Authorize button.
        expect(await page.getByRole('button', { name: /Authorize/ }).count()).toBeGreaterThan(0);
        if (path === '/docs') await screenshot(page, 'desktop-api-docs');
        expect(elsewhere).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('groups the routes by module, each with a summary and its roles', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/docs');
      await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(18);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(await page.locator('.opblock-tag').allTextContents()).toEqual([
        expect.stringMatching(/^auth/),
        expect.stringMatching(/^knowledge/),
        expect.stringMatching(/^chat/),
      ]);
      const users = page.locator('.opblock', { hasText: '/moduleauth/users' }).first();
      expect(await users.locator('.opblock-summary-description').textContent()).toBe(
        'Every user, oldest first, a page at a time [SUPER_ADMIN]',
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(['desktop', 'phone'] as const)(
    '/docs?lang=zh is in Chinese on a %s: the page’s language, title and every summary',
    async (viewport) => {
      const { page, context, errors } = await openPage(browser, stack().baseUrl, viewport, 'zh-CN');
      try {
        await page.goto('/docs?lang=zh');
        await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(18);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
        expect(await page.title()).toBe('kbchat：知识库问答 API 参考');
        const summaries = await page.locator('.opblock-summary-description').allTextContents();
        expect(summaries.length).toBeGreaterThan(18);
        for (const summary of summaries) expect(summary).toMatch(/\p{Script=Han}/u);
        const users = page.locator('.opblock', { hasText: '/moduleauth/users' }).first();
        expect(await users.locator('.opblock-summary-description').textContent()).toBe(
          '所有用户，按创建时间从早到晚，分页 [SUPER_ADMIN]',
        );
        await screenshot(page, `${viewport}-zh-api-docs`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('shows a route’s declared refusals: the 429 of the limits with Retry-After and resets_at, the MCP transport’s own statuses', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/modulechat/docs');
      const chat = page.locator('.opblock', { hasText: '/modulechat/chat' }).first();
      await chat.locator('.opblock-summary').first().click();
      const tooMany = chat.locator('tr.response[data-code="429"]');
      await expect.poll(() => tooMany.count()).toBe(1);
      expect(await tooMany.textContent()).toContain('quota_exceeded');
      expect(await tooMany.locator('.headers').textContent()).toContain('Retry-After');
      // Swagger UI's example of the answer, built from the code's own problem schema.
      expect(await tooMany.locator('.example, pre').first().textContent()).toContain('resets_at');
      await tooMany.scrollIntoViewIfNeeded();
      await screenshot(page, 'desktop-api-docs-429');

      const mcp = page.locator('.opblock-post', { hasText: '/modulechat/mcp' }).first();
      await mcp.locator('.opblock-summary').first().click();
      await expect.poll(() => mcp.locator('tr.response').count()).toBeGreaterThan(5);
      const codes = await mcp
        .locator('tr.response')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code')));
      expect(codes).toEqual(['200', '202', '400', '401', '403', '406', '413', '415', 'default']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('tries GET /moduleauth/me with a bearer token', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/moduleauth/docs');
      await page
        .getByRole('button', { name: /Authorize/ })
        .first()
        .click();
      const dialog = page.locator('.dialog-ux');
      await dialog
        .locator('input[type="text"], input[type="password"]')
        .first()
        .fill(await adminToken());
      await dialog.locator('button.authorize').click();
      await dialog.locator('button.btn-done').click();

      const operation = page.locator('.opblock', { hasText: '/moduleauth/me' }).first();
      await operation.locator('.opblock-summary').first().click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByRole('button', { name: 'Execute' }).click();
      const body = operation.locator('.live-responses-table .response-col_description pre').first();
      await expect.poll(() => body.textContent()).toContain(stack().admin.username);
      expect(
        await operation
          .locator('.live-responses-table tbody .response-col_status')
          .first()
          .textContent(),
      ).toContain('200');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
