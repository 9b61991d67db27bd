// The audit trail screen in Chromium: records of a failed and a good sign-in and an upload
// listed with their names in both languages, the action filter narrows the list, the export
// saves a CSV; axe-clean on desktop and phone, with screenshots.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import { adminToken, callApi, logInAsAdmin, stack, unique } from './helpers';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await adminToken();
  // A refused sign-in and a collection made and renamed: records of each kind to show.
  await fetch(`${stack().baseUrl}/moduleauth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: unique('nobody'), password: 'not-the-password' }),
  });
  const made = await callApi<{ data: { id: string } }>('/moduleknowledge/collection', {
    token: admin,
    json: { name: '审计 Audit', description: '' },
  });
  await callApi('/moduleknowledge/collection', {
    token: admin,
    method: 'PUT',
    json: { id: made.body.data.id, name: '审计 Audit 2' },
  });
  await callApi(`/moduleknowledge/collection?id=${made.body.data.id}`, {
    token: admin,
    method: 'DELETE',
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('the audit trail', () => {
  for (const [language, locale, uploaded, filterLabel] of [
    ['en', 'en-GB', 'Collection created', 'Action'],
    ['zh', 'zh-CN', '创建资料集', '操作'],
  ] as const) {
    it.each(['desktop', 'phone'] as const)(
      `${language}: lists, filters and is axe-clean on %s`,
      async (viewport) => {
        const { page, context, errors } = await openPage(
          browser,
          stack().baseUrl,
          viewport,
          locale,
        );
        try {
          await page.goto('/#/admin/audit');
          await logInAsAdmin(page);
          await expect.poll(() => page.locator('table.audit tbody tr').count()).toBeGreaterThan(2);
          await expect.poll(() => page.getByText(uploaded).count()).toBeGreaterThan(0);
          expect(await seriousViolations(page), `${viewport} audit`).toEqual([]);
          await screenshot(page, `${viewport}-${language}-audit`);

          // On a phone the filters start folded: the records are the first screen.
          const box = page.locator('details.audit-filter-box');
          expect(await box.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(
            viewport === 'desktop',
          );
          if (viewport === 'phone') {
            const table = await page.locator('table.audit').boundingBox();
            expect(table!.y).toBeLessThan(page.viewportSize()!.height / 2);
            await box.locator('summary').click();
          }
          await page.getByLabel(filterLabel, { exact: true }).selectOption('knowledge.');
          await page.locator('.audit-filters button[type="submit"]').click();
          await expect
            .poll(async () =>
              (
                await page
                  .locator('table.audit tbody tr')
                  .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action') ?? ''))
              ).every((a) => a.startsWith('knowledge.')),
            )
            .toBe(true);
          expect(await seriousViolations(page), `${viewport} audit filtered`).toEqual([]);
          // The records, not the form, which fills a phone's first screen once opened.
          await page.locator('table.audit').scrollIntoViewIfNeeded();
          await screenshot(page, `${viewport}-${language}-audit-filtered`);

          const download = page.waitForEvent('download');
          await page.locator('.audit-toolbar button').click();
          expect((await download).suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
    );
  }
});
