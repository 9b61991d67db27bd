// The retrieval test screen in a real browser against the dev stack: a keeper searches their
// collection, reads why each passage ranked, saves a result as a test, runs the saved set and
// sees the case found at its rank; the page has no serious axe violation, in English and on a
// phone in Chinese.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import { adminToken, callApi, logInAsAdmin, pdfFile, stack, unique } from './helpers';

let browser: Browser;
let token = '';
let collectionId = '';
const WORD = unique('Quokka');

beforeAll(async () => {
  browser = await launchBrowser();
  token = await adminToken();
  const created = await callApi<{ data: { id: string } }>('/moduleknowledge/collection', {
    token,
    json: { name: unique('Leave rules') },
  });
  expect(created.status).toBe(200);
  collectionId = created.body.data.id;
  const file = pdfFile('leave-rules.pdf', [
    `${WORD} general provisions: who these rules apply to and when they take effect.`,
    `${WORD} annual leave: after ten years of service an employee has 25 working days of annual leave.`,
  ]);
  const form = new FormData();
  form.append('collection_id', collectionId);
  form.append('file', new File([new Uint8Array(file.buffer)], file.name, { type: file.mimeType }));
  const res = await fetch(`${stack().baseUrl}/moduleknowledge/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (collectionId) {
    await callApi(`/moduleknowledge/collection?id=${collectionId}`, { token, method: 'DELETE' });
  }
});

describe('the retrieval test screen', () => {
  it('searches, saves a result as a test, runs the set, and is axe-clean', async () => {
    const { page, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    await page.goto('/');
    await logInAsAdmin(page);
    await page.goto(`/#/collection/${collectionId}/retrieval`);
    await page.getByRole('textbox', { name: 'Question' }).fill(`${WORD} annual leave ten years`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('table', { name: /passages, best first$/ });
    const first = results.getByRole('row').nth(1);
    await expect.poll(() => first.textContent()).toContain('leave-rules.pdf · page 2');
    const link = first.getByRole('link', { name: 'leave-rules.pdf · page 2' });
    expect(await link.getAttribute('href')).toMatch(/^#\/doc\/[0-9a-f-]{36}\?page=2&chunk=\d+$/);
    expect(await seriousViolations(page)).toEqual([]);

    await first.getByRole('button', { name: 'Save as test' }).click();
    await expect
      .poll(() => page.locator('.retrieval-page .flash').textContent())
      .toBe('The question was saved to the test set.');
    const saved = page.getByRole('row', { name: new RegExp(`^${WORD} annual leave ten years`) });
    await expect.poll(() => saved.textContent()).toContain('leave-rules.pdf · page 2');

    await page.getByRole('button', { name: 'Run test set' }).click();
    await expect
      .poll(() => page.locator('.retrieval-summary').textContent())
      .toBe('Hit rate 100% · MRR 1.00 over 1 question (top 10)');
    expect(await saved.textContent()).toContain('✓ 1');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'retrieval-test-desktop-en');
    expect(errors).toEqual([]);
  });

  // After the first: the set holds the question it saved.
  it('reads as cards on a phone, in Chinese, axe-clean', async () => {
    const { page, errors } = await openPage(browser, stack().baseUrl, 'phone', 'zh-CN');
    await page.goto('/');
    await logInAsAdmin(page);
    await page.goto(`/#/collection/${collectionId}/retrieval`);
    await page.getByRole('textbox', { name: '问题' }).fill(`${WORD} 年休假`);
    await page.getByRole('button', { name: '检索', exact: true }).click();
    const card = page.locator('table.retrieval-results tbody tr').first();
    await card.waitFor();
    // A card: as wide as the screen allows, not a row of a table wider than the phone.
    const box = (await card.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.getByRole('button', { name: '运行测试集' }).click();
    await expect.poll(() => page.locator('.retrieval-summary').textContent()).toMatch(/^命中率/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'retrieval-test-phone-zh');
    expect(errors).toEqual([]);
  });
});
