// The users page: what a super admin can do there, and that nobody else reaches it.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { launchBrowser, openPage, screenshot } from './browser';
import {
  adminToken,
  callApi,
  createUser,
  deleteFileViaApi,
  logIn,
  moreItem,
  stack,
  tokenFor,
  unique,
  uploadViaApi,
} from './helpers';

let browser: Browser;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await browser?.close();
});

describe('a super admin on the users page', () => {
  it('creates, promotes, disables, resets the password of and deletes a user', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/');
      await logIn(page, stack().admin.username, stack().admin.password);
      await page.getByRole('link', { name: 'Users' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Users');
      expect(await page.getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe(
        'page',
      );

      // Create.
      const username = unique('casey');
      await page.locator('.create-user').getByLabel('Username').fill(username);
      await page.locator('.create-user').getByLabel('Password').fill('first-password');
      await page.getByRole('button', { name: 'Add user' }).click();
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe(`${username} was added as user.`);
      const row = page.locator(`tr[data-username="${username}"]`);
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.locator('td').allTextContents()).toEqual(
        expect.arrayContaining(['User', 'Active']),
      );
      expect(await page.locator('.create-user').getByLabel('Username').inputValue()).toBe('');
      await tokenFor(username, 'first-password');

      // What the service refuses is shown in its own words (a name taken in any letter case).
      await page.locator('.create-user').getByLabel('Username').fill(username.toUpperCase());
      await page.locator('.create-user').getByLabel('Password').fill('another-password');
      await page.getByRole('button', { name: 'Add user' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe(`${username.toUpperCase()} could not be added: That username is taken.`);
      await page.locator('.create-user').getByLabel('Username').fill('');
      await page.locator('.create-user').getByLabel('Password').fill('');

      // Promote, demote.
      await row.getByRole('button', { name: `Make super admin: ${username}` }).click();
      await expect.poll(() => row.locator('.badge').first().textContent()).toBe('Super admin');
      expect(await page.getByRole('status').textContent()).toBe(
        `${username} is now a super admin.`,
      );
      await row.getByRole('button', { name: `Make user: ${username}` }).click();
      await expect.poll(() => row.locator('.badge').first().textContent()).toBe('User');

      // Disable: the account can no longer log in; enable again.
      await row.getByRole('button', { name: `Disable: ${username}` }).click();
      await expect.poll(() => row.locator('.badge.off').textContent()).toBe('Disabled');
      const refused = await callApi('/moduleauth/login', {
        json: { username, password: 'first-password' },
      });
      expect(refused.status).toBe(401);
      await row.getByRole('button', { name: `Enable: ${username}` }).click();
      await expect.poll(() => row.locator('.badge.on').textContent()).toBe('Active');

      // Reset the password.
      await row.getByRole('button', { name: `Reset password: ${username}` }).click();
      const dialog = page.getByRole('dialog', { name: `New password for ${username}` });
      await dialog.getByLabel('New password').fill('second-password');
      await dialog.getByLabel('New password').press('Enter');
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe(`The password of ${username} was reset.`);
      await tokenFor(username, 'second-password');
      // The table fits the desktop screen: no sideways scrolling.
      expect(
        await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth),
      ).toBe(0);
      await screenshot(page, 'desktop-users');

      // Delete.
      await row.getByRole('button', { name: `Delete: ${username}` }).click();
      await page
        .getByRole('dialog', { name: `Delete ${username}?` })
        .getByRole('button', { name: 'Delete user' })
        .click();
      await expect.poll(() => row.count()).toBe(0);
      expect(await page.getByRole('status').textContent()).toBe(`${username} was deleted.`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works on a phone-sized screen', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'phone');
    try {
      await page.goto('/#/users');
      await logIn(page, stack().admin.username, stack().admin.password);
      await expect.poll(() => page.locator('table.users tbody tr').count()).toBeGreaterThan(0);
      await screenshot(page, 'phone-users');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a user who is not a super admin', () => {
  it('sees no users page, and is told "Access denied" when going there anyway', async () => {
    const reader = await createUser();
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/');
      await logIn(page, reader.username, reader.password);
      expect(await page.locator('.topbar .badge').textContent()).toBe('User');
      expect(
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents(),
      ).toEqual(['Chat']);

      await page.goto('/#/users');
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Access denied');
      expect(await page.locator('.denied').textContent()).toContain('Only super admins');
      expect(await page.locator('table.users').count()).toBe(0);
      await screenshot(page, 'desktop-access-denied');
      // The API says the same to anyone who tries.
      const direct = await callApi('/moduleauth/users', {
        token: await tokenFor(reader.username, reader.password),
      });
      expect(direct).toEqual({ status: 403, body: 'Access denied' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('may delete the files they uploaded, not other people’s', async () => {
    const reader = await createUser();
    const admin = await adminToken();
    const mine = `${unique('mine')}.pdf`;
    const theirs = `${unique('theirs')}.pdf`;
    const readerToken = await tokenFor(reader.username, reader.password);
    const own = await uploadViaApi(readerToken, mine, makeTextPdf([`Own file ${mine}`]));
    const other = await uploadViaApi(admin, theirs, makeTextPdf([`Admin file ${theirs}`]));
    cleanup.push(
      () => deleteFileViaApi(admin, own.id),
      () => deleteFileViaApi(admin, other.id),
    );

    const { page, context } = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await page.goto('/');
      await logIn(page, reader.username, reader.password);
      const ownRow = page.locator('.file', { hasText: mine });
      const otherRow = page.locator('.file', { hasText: theirs });
      await expect.poll(() => otherRow.count()).toBe(1);
      // Their own file's Delete is under its More menu; the other file has no menu at all.
      const remove = await moreItem(ownRow, `More actions for ${mine}`, `Delete ${mine}`);
      expect(await remove.count()).toBe(1);
      expect(await otherRow.getByRole('button', { name: /^(Delete|More)/ }).count()).toBe(0);
      expect(await otherRow.getByRole('link', { name: `Download ${theirs}` }).count()).toBe(1);
    } finally {
      await context.close();
    }
    // The same rule holds at the API, whatever a page shows.
    const denied = await callApi(`/moduleknowledge/file?id=${other.id}`, {
      token: readerToken,
      method: 'DELETE',
    });
    expect(denied.status).toBe(403);
  });
});
