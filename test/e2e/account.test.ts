// The account screens in Chromium: the user menu (keyboard, Escape, phone), my account (change
// password, sign out my other sessions: the new token replaces the session's, another
// browser's session ends), my API keys (create with a last day, shown once and copied, the
// key works against the API, revoke) — axe-clean in both languages, desktop and phone, with
// screenshots.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot, type ViewportName } from './browser';
import { callApi, createUser, logIn, stack, tokenFor } from './helpers';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const menuButton = (page: Page) => page.locator('.user-menu .menu-button');

/** Logs in whatever the page's language: the login form's two fields, then Enter. */
async function logInAs(page: Page, user: { username: string; password: string }) {
  await page.locator('.login input').nth(0).fill(user.username);
  await page.locator('.login input').nth(1).fill(user.password);
  await page.locator('.login input').nth(1).press('Enter');
  await expect.poll(() => page.locator('.who-name').textContent()).toContain(user.username);
}

describe('the user menu and my account', () => {
  it('opens with the keyboard, closes on Escape, and leads to my account', async () => {
    const user = await createUser();
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/');
      await logIn(page, user.username, user.password);
      await menuButton(page).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => menuButton(page).getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('My account');
      await page.keyboard.press('Escape');
      await expect.poll(() => menuButton(page).getAttribute('aria-expanded')).toBe('false');
      expect(
        await page.evaluate(() => document.activeElement?.classList.contains('menu-button')),
      ).toBe(true);

      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: 'My account' }).click();
      await expect.poll(() => page.locator('main#main h1').textContent()).toBe('My account');
      expect(await page.title()).toContain('My account');
      expect(await page.locator('.facts').textContent()).toContain(user.username);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('changes the password and signs out the other sessions; this one carries on', async () => {
    const user = await createUser();
    const other = await tokenFor(user.username, user.password);
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/#/account');
      await logIn(page, user.username, user.password);
      await expect.poll(() => page.locator('main#main h1').textContent()).toBe('My account');
      const before = await page.evaluate(() => sessionStorage.getItem('kbchat.token'));

      // The wrong current password: said in words, nothing changes.
      const form = page.locator('form.password-form');
      await form.getByLabel('Current password').fill('not-the-password');
      await form.getByLabel('New password', { exact: true }).fill('a-whole-new-password');
      await form.getByLabel('New password again').fill('a-whole-new-password');
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect
        .poll(() => page.locator('.notice.error:not([hidden])').first().textContent())
        .toMatch(/^The password was not changed: /);

      await form.getByLabel('Current password').fill(user.password);
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect
        .poll(() => page.locator('.flash').textContent())
        .toContain('Your password was changed.');
      const renewed = await page.evaluate(() => sessionStorage.getItem('kbchat.token'));
      expect(renewed).not.toBe(before);
      expect((await callApi('/moduleauth/me', { token: other })).status).toBe(401);
      expect((await callApi('/moduleauth/me', { token: renewed! })).status).toBe(200);

      const second = await tokenFor(user.username, 'a-whole-new-password');
      await page.getByRole('button', { name: 'Sign out my other sessions' }).click();
      await page.getByRole('button', { name: 'Sign out the others' }).click();
      await expect
        .poll(() => page.locator('.flash').textContent())
        .toBe('Your other sessions have ended.');
      const latest = await page.evaluate(() => sessionStorage.getItem('kbchat.token'));
      expect(latest).not.toBe(renewed);
      expect((await callApi('/moduleauth/me', { token: second })).status).toBe(401);
      // The page still works on its new token: another page loads.
      await page.goto('/#/keys');
      await expect.poll(() => page.locator('main#main h1').textContent()).toBe('My API keys');
      await expect.poll(() => page.locator('.keys-page .empty, .keys-page table').count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('my API keys', () => {
  it('creates a key with a last day, shows it once, and revokes it', async () => {
    const user = await createUser();
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: stack().baseUrl,
    });
    try {
      await page.goto('/#/keys');
      await logIn(page, user.username, user.password);
      await expect.poll(() => page.locator('main#main h1').textContent()).toBe('My API keys');
      const form = page.locator('form.create-key');
      await form.getByLabel('Name').fill('reporting script');
      await form.getByLabel('Expires').fill('2031-05-06');
      await form.getByRole('button', { name: 'Create key' }).click();

      const dialog = page.getByRole('dialog', { name: 'Your new key: reporting script' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      const key = await dialog.getByLabel('API key').inputValue();
      expect(key).toMatch(/^kbc_/);
      await dialog.getByRole('button', { name: 'Copy' }).click();
      await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Copied.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      expect((await callApi('/moduleauth/me', { token: key })).status).toBe(200);
      await screenshot(page, 'desktop-en-api-key-shown');
      await dialog.getByRole('button', { name: 'Done' }).click();

      const row = page.locator('table.api-keys tbody tr', { hasText: 'reporting script' });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain(key.slice(0, 8));
      expect(await row.textContent()).toContain('2031');
      expect(await page.content()).not.toContain(key);

      await row.getByRole('button', { name: 'Revoke: reporting script' }).click();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await expect
        .poll(() => page.locator('.flash').textContent())
        .toBe('The key reporting script was revoked.');
      expect((await callApi('/moduleauth/me', { token: key })).status).toBe(401);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each([
  ['en', 'en-GB'],
  ['zh', 'zh-CN'],
] as const)('the account screens in %s', (language, locale) => {
  it.each(['desktop', 'phone'] as const)(
    'are axe-clean on a %s, the user menu open too',
    async (viewport: ViewportName) => {
      const user = await createUser();
      const token = await tokenFor(user.username, user.password);
      const soon = new Date(Date.now() + 90 * 86_400_000).toISOString();
      for (const [name, expires_at] of [
        ['MCP client', soon],
        ['nightly export', undefined],
      ] as const) {
        const res = await callApi('/moduleauth/api_key', {
          token,
          json: { name, ...(expires_at ? { expires_at } : {}) },
        });
        expect(res.status).toBe(200);
      }
      const { page, context, errors } = await openPage(browser, stack().baseUrl, viewport, locale);
      try {
        await page.goto('/#/account');
        await logInAs(page, user);
        await expect.poll(() => page.locator('.account-page h1').count()).toBe(1);
        expect(await seriousViolations(page), `${viewport} account`).toEqual([]);
        await screenshot(page, `${viewport}-${language}-account`);

        await menuButton(page).click();
        await expect.poll(() => page.locator('.user-menu .menu-list').isVisible()).toBe(true);
        expect(await seriousViolations(page), `${viewport} user menu`).toEqual([]);
        // On a phone the open menu stays within the screen.
        const box = await page.locator('.user-menu .menu-list').boundingBox();
        const width = page.viewportSize()!.width;
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        await screenshot(page, `${viewport}-${language}-user-menu`);
        await page.keyboard.press('Escape');

        await page.goto('/#/keys');
        await expect.poll(() => page.locator('table.api-keys tbody tr').count()).toBe(2);
        expect(await seriousViolations(page), `${viewport} keys`).toEqual([]);
        await screenshot(page, `${viewport}-${language}-api-keys`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
