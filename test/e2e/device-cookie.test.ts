// The device cookie in a real browser, on the local stack's plain http://127.0.0.1: the web
// app logs in with a same-origin fetch, so Chromium keeps the Secure, HttpOnly cookie and sends
// it with the next login, and that login is judged by the device alone.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './browser';
import { callApi, createUser, logIn, stack } from './helpers';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Submits the login form (already open) and waits for its answer. */
async function submitLogin(page: Page, username: string, password: string) {
  const form = page.locator('.login');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(password);
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/moduleauth/login')),
    page.waitForResponse((r) => r.url().endsWith('/moduleauth/login')),
    form.getByLabel('Password').press('Enter'),
  ]);
  return request;
}

describe('the device cookie in Chromium', () => {
  it('is kept from a login over http://127.0.0.1, hidden from script, and sent with the next login', async () => {
    const user = await createUser();
    const { page, context, errors } = await openPage(browser, stack().baseUrl);
    try {
      await page.goto('/');
      await logIn(page, user.username, user.password);

      const cookies = (await context.cookies()).filter((c) => c.name.startsWith('__Secure-'));
      expect(cookies).toEqual([
        expect.objectContaining({
          name: expect.stringMatching(/^__Secure-kbchat-device-/),
          domain: '127.0.0.1',
          path: '/moduleauth',
          httpOnly: true,
          secure: true,
          sameSite: 'Strict',
        }),
      ]);
      const { name, value } = cookies[0]!;
      expect(cookies[0]!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
      expect(await page.evaluate(() => document.cookie)).not.toContain('kbchat-device');

      // Another tab of the same browser is logged out (the token lives per tab): its login
      // sends the cookie. Its 5 wrong passwords are the device's own failures, so the sixth
      // try is refused there…
      const tab = await context.newPage();
      await tab.goto('/');
      for (let i = 0; i < 5; i++) {
        const request = await submitLogin(tab, user.username, `typo-${i}-password`);
        expect(await request.headerValue('cookie')).toContain(`${name}=${value}`);
        await expect
          .poll(() => tab.locator('.login .notice').textContent())
          .toContain('Wrong username or password');
      }
      await submitLogin(tab, user.username, user.password);
      await expect
        .poll(() => tab.locator('.login .notice').textContent())
        .toContain('Too many failed attempts');

      // …and nowhere else: a client without the cookie, from the same (local) address, logs in.
      const elsewhere = await callApi('/moduleauth/login', {
        json: { username: user.username, password: user.password },
      });
      expect(elsewhere.status).toBe(200);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
