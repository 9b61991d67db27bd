// The usage screens in Chromium: my usage (today against the limits, the charts and their
// tables), everyone's usage and the limits form for super admins — axe-clean in both
// languages, desktop and phone, with screenshots; the limits form saves what was entered.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import { adminToken, callApi, logInAsAdmin, stack } from './helpers';

let browser: Browser;
let admin = '';

const NO_LIMITS = {
  user_daily_tokens: null,
  user_daily_questions: null,
  collection_max_bytes: null,
  collection_max_files: null,
  user_max_bytes: null,
  audit_questions: true,
  audit_retention_days: 1095,
};

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminToken();
  // A question or two today, so the pages have figures to show.
  for (const prompt of ['How many vacation days are there?', '年假有多少天？']) {
    const res = await fetch(`${stack().baseUrl}/modulechat/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ prompt }),
    });
    expect(res.status).toBe(200);
    await res.text();
  }
  await callApi('/modulechat/limits', {
    token: admin,
    method: 'PUT',
    json: { ...NO_LIMITS, user_daily_questions: 200, collection_max_bytes: 500 * 1024 * 1024 },
  });
});

afterAll(async () => {
  await callApi('/modulechat/limits', { token: admin, method: 'PUT', json: NO_LIMITS });
  await browser?.close();
});

describe('usage and limits', () => {
  for (const [language, locale] of [
    ['en', 'en-GB'],
    ['zh', 'zh-CN'],
  ] as const) {
    it.each(['desktop', 'phone'] as const)(
      `${language}: the three pages on %s are axe-clean`,
      async (viewport) => {
        const { page, context, errors } = await openPage(
          browser,
          stack().baseUrl,
          viewport,
          locale,
        );
        try {
          await page.goto('/#/usage');
          await logInAsAdmin(page);
          await expect.poll(() => page.locator('.usage-page table').count()).toBeGreaterThan(0);
          await expect.poll(() => page.locator('.usage-chart svg[role="img"]').count()).toBe(2);
          expect(await seriousViolations(page), `${viewport} usage`).toEqual([]);
          await screenshot(page, `${viewport}-${language}-usage`);

          await page.goto('/#/admin/usage');
          await expect
            .poll(() => page.locator('.usage-admin-page table').count())
            .toBeGreaterThan(1);
          expect(await seriousViolations(page), `${viewport} usage of everyone`).toEqual([]);
          await screenshot(page, `${viewport}-${language}-usage-admin`);

          await page.goto('/#/admin/limits');
          await expect.poll(() => page.locator('.limits-form input').count()).toBe(7);
          expect(await seriousViolations(page), `${viewport} limits`).toEqual([]);
          await screenshot(page, `${viewport}-${language}-limits`);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
    );
  }

  it('the limits form saves what was entered; an empty box is no limit', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/#/admin/limits');
      await logInAsAdmin(page);
      const form = page.locator('form.limits-form');
      await expect
        .poll(() => form.getByLabel('Questions per user per day').inputValue())
        .toBe('200');
      await form.getByLabel('Questions per user per day').fill('');
      await form.getByLabel('Tokens per user per day').fill('75000');
      await form.getByRole('button', { name: 'Save limits' }).click();
      await expect.poll(() => page.locator('.flash').textContent()).toBe('Limits saved.');
      const saved = await callApi<{ data: typeof NO_LIMITS }>('/modulechat/limits', {
        token: admin,
      });
      expect(saved.body.data).toMatchObject({
        user_daily_questions: null,
        user_daily_tokens: 75000,
        collection_max_bytes: 500 * 1024 * 1024,
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
