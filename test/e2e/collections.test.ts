// Collections in the web app: one user creates a collection, uploads into it and shares it
// with another as a viewer, who reads it but cannot add to it and loses it when removed;
// moving a file between collections; the switcher and the members page in Chinese, with the
// service's refusals translated by their code, and no serious axe violation on either.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_POLICY_FIXTURE } from '../../dev/fixtures/pdf-builder';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot } from './browser';
import {
  ask,
  callApi,
  chooseFiles,
  createUser,
  lastAnswerWhenEnded,
  logIn,
  pdfFile,
  stack,
  tokenFor,
  unique,
  type CreatedUser,
  moreItem,
} from './helpers';

let browser: Browser;
let owner: CreatedUser;
let reader: CreatedUser;
const collectionName = unique('Project');
const fileName = `${unique('plan')}.pdf`;
let collectionId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await createUser();
  reader = await createUser();
});

afterAll(async () => {
  await browser?.close();
});

/** The collections a user can read, as the API lists them. */
async function collectionsOf(user: CreatedUser) {
  const res = await callApi<{ data: { id: string; name: string; role: string }[] }>(
    '/moduleknowledge/collections',
    { token: await tokenFor(user.username, user.password) },
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

async function filesIn(user: CreatedUser, collection: string) {
  const res = await callApi<{ data: { id: string; name: string }[] }>(
    `/moduleknowledge/list?collection_id=${collection}`,
    { token: await tokenFor(user.username, user.password) },
  );
  return res;
}

/** The names the switcher offers, in order. */
const switcherOptions = (page: Page) =>
  page.locator('.collection-switcher option').allTextContents();

/** Creates a collection with the "New collection" dialog; it becomes the chosen one. */
async function createCollection(page: Page, name: string, description = '') {
  await page.getByRole('button', { name: 'New collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'New collection' });
  await dialog.getByLabel('Name').fill(name);
  if (description) await dialog.getByLabel('Description (optional)').fill(description);
  await dialog.getByRole('button', { name: 'Create collection' }).click();
  await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
  await expect
    .poll(() =>
      page.getByLabel('Collection', { exact: true }).locator('option:checked').textContent(),
    )
    .toBe(name);
}

describe('a collection shared with a viewer', () => {
  it('is created, filled, shared, read by the viewer, and taken away again', async () => {
    const a = await openPage(browser, stack().baseUrl, 'desktop');
    const b = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      // A creates a collection: the shared one comes first, then theirs, chosen.
      await a.page.goto('/');
      await logIn(a.page, owner.username, owner.password);
      await expect.poll(() => switcherOptions(a.page)).toEqual(['Shared']);
      await createCollection(a.page, collectionName, 'Plans for the new library');
      expect(await switcherOptions(a.page)).toEqual(['Shared', collectionName]);
      expect(await a.page.locator('.collection-hint').textContent()).toContain('Your role: Owner');
      collectionId = (await collectionsOf(owner)).find((c) => c.name === collectionName)!.id;

      // A uploads into it: the file is in that collection, not in the shared one.
      await chooseFiles(a.page, 'Choose documents…', [
        // Its own text, so that it is never a duplicate of another test's upload.
        pdfFile(
          fileName,
          ENGLISH_POLICY_FIXTURE.pages.map((text) => `${text}\n${fileName}`),
        ),
      ]);
      await expect
        .poll(() => a.page.locator('.upload', { hasText: fileName }).getAttribute('data-state'))
        .toBe('added');
      await expect.poll(() => a.page.locator('.file', { hasText: fileName }).count()).toBe(1);
      const inCollection = await filesIn(owner, collectionId);
      expect(inCollection.body.data.map((f) => f.name)).toEqual([fileName]);
      const shared = (await collectionsOf(owner)).find((c) => c.name !== collectionName)!;
      expect((await filesIn(owner, shared.id)).body.data.map((f) => f.name)).not.toContain(
        fileName,
      );
      // The chat searches the chosen collection, and says so.
      expect(await a.page.locator('.scope').textContent()).toContain(
        `In the collection “${collectionName}”:`,
      );
      // Back to the shared collection: the file is not listed there.
      await a.page.getByLabel('Collection', { exact: true }).selectOption({ label: 'Shared' });
      await expect.poll(() => a.page.locator('.file', { hasText: fileName }).count()).toBe(0);
      await a.page
        .getByLabel('Collection', { exact: true })
        .selectOption({ label: collectionName });
      await expect.poll(() => a.page.locator('.file', { hasText: fileName }).count()).toBe(1);

      // A adds B as a viewer on the members page.
      await a.page.getByRole('link', { name: 'Members' }).click();
      await expect
        .poll(() => a.page.getByRole('heading', { level: 1 }).textContent())
        .toBe(collectionName);
      const addForm = a.page.locator('.add-member');
      await addForm.getByLabel('Username').fill(reader.username);
      await addForm.getByLabel('Role').selectOption('viewer');
      await addForm.getByRole('button', { name: 'Add member' }).click();
      await expect
        .poll(() => a.page.getByRole('status').textContent())
        .toBe(`${reader.username} was added as viewer.`);
      const readerRow = a.page.locator(`tr[data-username="${reader.username}"]`);
      await expect.poll(() => readerRow.count()).toBe(1);
      // Adding them again is refused, in words the page knows by the code.
      await addForm.getByLabel('Username').fill(reader.username);
      await addForm.getByRole('button', { name: 'Add member' }).click();
      await expect
        .poll(() => a.page.getByRole('alert').textContent())
        .toBe(`${reader.username} could not be added: That user is already a member.`);
      // An unknown user is named as such.
      const nobody = unique('nobody');
      await addForm.getByLabel('Username').fill(nobody);
      await addForm.getByRole('button', { name: 'Add member' }).click();
      await expect
        .poll(() => a.page.getByRole('alert').textContent())
        .toBe(`${nobody} could not be added: There is no active user named ${nobody}.`);
      expect(await seriousViolations(a.page)).toEqual([]);
      await screenshot(a.page, 'desktop-collection-members');

      // B sees the collection and its file, and no way to upload into it.
      await b.page.goto('/');
      await logIn(b.page, reader.username, reader.password);
      await expect.poll(() => switcherOptions(b.page)).toEqual(['Shared', collectionName]);
      await b.page
        .getByLabel('Collection', { exact: true })
        .selectOption({ label: collectionName });
      await expect.poll(() => b.page.locator('.file', { hasText: fileName }).count()).toBe(1);
      expect(await b.page.getByRole('button', { name: 'Choose documents…' }).count()).toBe(0);
      expect(await b.page.locator('.collection-hint').textContent()).toContain(
        'only its editors and owners add files',
      );
      // Nor to delete, move, correct or replace A's file; downloading it, reading its chunks
      // and its versions is fine.
      const row = b.page.locator('.file', { hasText: fileName });
      expect(
        await row
          .getByRole('button', {
            name: /^(Delete|Move|Retry|Edit details|Switch|Upload new version)/,
          })
          .count(),
      ).toBe(0);
      expect(await row.getByRole('button', { name: /^Versions/ }).count()).toBe(1);
      expect(await row.getByRole('link', { name: `Download ${fileName}` }).count()).toBe(1);
      // B asks about it: only the chosen collection is searched, and each source names it.
      const chatRequest = b.page.waitForRequest((r) => r.url().includes('/modulechat/chat'));
      await ask(b.page, 'What does the Marrowbank refund rule say?');
      expect((await chatRequest).postDataJSON()).toMatchObject({ collection_id: collectionId });
      const answer = await lastAnswerWhenEnded(b.page);
      expect(await answer.getAttribute('data-state')).toBe('done');
      const sources = answer.locator('.sources li');
      expect(await sources.count()).toBeGreaterThanOrEqual(1);
      for (const source of await sources.all()) {
        expect(await source.getByRole('link').textContent()).toBe(fileName);
        expect(await source.locator('.source-collection').textContent()).toBe(collectionName);
      }
      // The members page shows the members, with no owner's controls.
      await b.page.getByRole('link', { name: 'Members' }).click();
      await expect
        .poll(() => b.page.locator(`tr[data-username="${owner.username}"]`).textContent())
        .toContain('Owner');
      expect(await b.page.locator('.add-member').count()).toBe(0);
      expect(await b.page.getByRole('button', { name: 'Delete collection' }).count()).toBe(0);
      expect(await b.page.getByRole('button', { name: 'Leave' }).count()).toBe(1);
      // The service refuses a viewer's upload all the same.
      const form = new FormData();
      form.append('file', new File(['viewer text'], 'viewer.txt'));
      form.append('collection_id', collectionId);
      const refused = await fetch(`${stack().baseUrl}/moduleknowledge/upload`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${await tokenFor(reader.username, reader.password)}`,
        },
        body: form,
      });
      expect(refused.status).toBe(403);
      // B goes back to the chat, the collection still chosen.
      await b.page.getByRole('link', { name: 'Back to the chat' }).click();
      await expect.poll(() => b.page.locator('.file', { hasText: fileName }).count()).toBe(1);

      // A removes B: B no longer sees the collection or its file.
      await readerRow.getByRole('button', { name: `Remove: ${reader.username}` }).click();
      await a.page
        .getByRole('dialog', { name: `Remove ${reader.username}?` })
        .getByRole('button', { name: 'Remove' })
        .click();
      await expect.poll(() => readerRow.count()).toBe(0);
      expect(await a.page.getByRole('status').textContent()).toBe(
        `${reader.username} was removed.`,
      );
      // B's page still shows it: a question is refused, in words the page knows by the code,
      // and the workspace falls back to the shared collection.
      await ask(b.page, 'What does the Marrowbank refund rule say?');
      const refusal = await lastAnswerWhenEnded(b.page);
      expect(await refusal.getAttribute('data-state')).toBe('refused');
      expect(await refusal.locator('.answer-notice').textContent()).toContain(
        'the chosen collection is not available to you',
      );
      await expect.poll(() => switcherOptions(b.page)).toEqual(['Shared']);
      await expect.poll(() => b.page.locator('.file', { hasText: fileName }).count()).toBe(0);
      // And so after a reload.
      await b.page.reload();
      await expect.poll(() => switcherOptions(b.page)).toEqual(['Shared']);
      expect(await b.page.locator('.file', { hasText: fileName }).count()).toBe(0);
      // The API answers them as if it did not exist.
      expect((await filesIn(reader, collectionId)).status).toBe(404);
      expect(a.errors).toEqual([]);
      expect(b.errors).toEqual([]);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('moves a file to another collection the user may add to', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop');
    const other = unique('Archive');
    try {
      await page.goto('/');
      await logIn(page, owner.username, owner.password);
      await createCollection(page, other);
      await page.getByLabel('Collection', { exact: true }).selectOption({ label: collectionName });
      const row = page.locator('.file', { hasText: fileName });
      await expect.poll(() => row.count()).toBe(1);
      const move = await moreItem(
        row,
        `More actions for ${fileName}`,
        `Move ${fileName} to another collection`,
      );
      await move.click();
      const dialog = page.getByRole('dialog', { name: `Move ${fileName}` });
      // The collections the file can go to: the shared one and the other, not its own.
      await expect
        .poll(() => dialog.locator('option').allTextContents())
        .toEqual(['Shared', other]);
      await dialog.getByLabel('Move to').selectOption({ label: other });
      await dialog.getByRole('button', { name: 'Move', exact: true }).click();
      await expect.poll(() => row.count()).toBe(0);
      await page.getByLabel('Collection', { exact: true }).selectOption({ label: other });
      await expect.poll(() => row.count()).toBe(1);
      const otherId = (await collectionsOf(owner)).find((c) => c.name === other)!.id;
      expect((await filesIn(owner, otherId)).body.data.map((f) => f.name)).toEqual([fileName]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('collections in Chinese', () => {
  it('shows the switcher and the members page in Chinese, refusals translated', async () => {
    const { page, context, errors } = await openPage(browser, stack().baseUrl, 'desktop', 'zh-CN');
    const name = unique('资料');
    try {
      await page.goto('/');
      await page.getByLabel('用户名').fill(owner.username);
      await page.getByLabel('密码').fill(owner.password);
      await page.getByLabel('密码').press('Enter');
      await expect.poll(() => page.locator('.who-name').textContent()).toContain(owner.username);

      const switcher = page.getByLabel('资料集', { exact: true });
      await expect.poll(() => switcher.locator('option').first().textContent()).toBe('公共资料集');
      expect(await page.locator('.collection-hint').textContent()).toBe(
        '所有用户都能查看公共资料集，并向其中添加文件。',
      );
      await page.getByRole('button', { name: '新建资料集' }).click();
      const dialog = page.getByRole('dialog', { name: '新建资料集' });
      await dialog.getByLabel('名称').fill(name);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: '创建资料集' }).click();
      await expect.poll(() => switcher.locator('option:checked').textContent()).toBe(name);
      expect(await page.locator('.collection-hint').textContent()).toContain('您的角色：所有者');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'desktop-collections-zh');

      await page.getByRole('link', { name: '成员' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
      expect(await page.locator('table.members thead th').allTextContents()).toEqual([
        '用户',
        '角色',
        '加入时间',
        '操作',
      ]);
      await page.locator('.add-member').getByLabel('用户名').fill(reader.username);
      await page.locator('.add-member').getByLabel('角色').selectOption('editor');
      await page.getByRole('button', { name: '添加成员' }).click();
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe(`已将 ${reader.username} 添加为编辑者。`);

      // The last owner cannot step down: refused by the code last_owner, in Chinese.
      await page.getByLabel(`${owner.username} 的角色`).selectOption('viewer');
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('未能完成更改：资料集至少要保留一位所有者：请先将另一名成员设为所有者。');
      expect(await page.getByLabel(`${owner.username} 的角色`).inputValue()).toBe('owner');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'desktop-collection-members-zh');

      // Deleting asks first, then the collection is gone for everyone.
      await page.getByRole('button', { name: '删除资料集' }).click();
      const confirm = page.getByRole('dialog', { name: `删除 ${name}？` });
      expect(await confirm.textContent()).toContain('无法恢复');
      await confirm.getByRole('button', { name: '删除资料集' }).click();
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe(`已删除资料集 ${name}。`);
      expect((await collectionsOf(reader)).map((c) => c.name)).not.toContain(name);
      await page.getByRole('link', { name: '返回问答' }).click();
      await expect.poll(() => switcher.locator('option').allTextContents()).not.toContain(name);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
