// Conversations in the web app: a follow-up that only makes sense after the first question is
// answered from the right passage (English and Chinese), the list beside the chat (new, switch,
// rename, delete), a reload that reopens the conversation, feedback that persists, the
// unhelpful answers a super admin reviews, the Chinese page on a phone, and no serious axe
// violation on any of the new views.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot, type Session } from './browser';
import {
  ask,
  callApi,
  createUser,
  lastAnswerWhenEnded,
  logIn,
  logInAsAdmin,
  stack,
  tokenFor,
  unique,
  type CreatedUser,
} from './helpers';

const tag = unique('conv');
const COLLECTION = `Timetables ${tag}`;
const ENGLISH = `quillmoor-${tag}.pdf`;
const CHINESE = `出租车-${tag}.pdf`;
// One sentence a page: the offline model answers by quoting the passages' best sentences.
const ENGLISH_PAGES = [
  'Quillmoor refund rule: passenger tickets are refunded within 14 days of the request, less a handling fee of 19 euros.',
  'Quillmoor refund rule for freight: freight consignments are refunded within 30 days of the claim, with no handling fee.',
  'Freight yard hours: the freight yard and the freight office open at 6:00 for freight deliveries and freight pickups.',
];
const CHINESE_PAGES = [
  '出租车起步价：白天出租车起步价为13元，包含3公里。',
  '出租车夜间起步价：夜间（23时至次日5时）出租车起步价为16元，包含3公里。',
  '夜间施工管理：夜间施工须提前办理夜间施工许可，夜间噪声不得超过55分贝。',
];
const FIRST = 'What is the Quillmoor refund rule?';
const FOLLOW_UP = 'And what about freight?';
const FIRST_ZH = '出租车起步价是多少？';
const FOLLOW_UP_ZH = '那夜间呢？';
const COMMENT = `It left out the handling fee (${tag}).`;

interface ConversationRow {
  id: string;
  title: string;
  file_id: string[] | null;
  collection_id: string[] | null;
}

let browser: Browser;
let user: CreatedUser;
let token: string;
let collectionId: string;
let session: Session;
let page: Page;

async function conversationsOf(): Promise<ConversationRow[]> {
  const res = await callApi<{ data: { items: ConversationRow[] } }>(
    '/modulechat/conversations?size=100',
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.data.items;
}

async function uploadInto(collection: string, name: string, pages: readonly string[]) {
  const form = new FormData();
  const bytes = makeTextPdf(pages.map((text) => `${text}\n${tag}`));
  form.append('file', new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
  form.append('collection_id', collection);
  const res = await fetch(`${stack().baseUrl}/moduleknowledge/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The answer of the last turn once ended, its text and its source names. */
async function lastAnswer(on: Page) {
  const answer = await lastAnswerWhenEnded(on);
  return {
    state: await answer.getAttribute('data-state'),
    text: (await answer.locator('.markdown').textContent()) ?? '',
    sources: await answer.locator('.sources li').allTextContents(),
  };
}

const listItems = (on: Page) => on.locator('.conversation-item .conversation-item-title');
const headTitle = (on: Page) => on.locator('.chat-head-title').textContent();

async function expectNoViolations(on: Page) {
  expect(await seriousViolations(on)).toEqual([]);
}

beforeAll(async () => {
  browser = await launchBrowser();
  user = await createUser();
  token = await tokenFor(user.username, user.password);
  const created = await callApi<{ data: { id: string } }>('/moduleknowledge/collection', {
    token,
    json: { name: COLLECTION },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  collectionId = created.body.data.id;
  await uploadInto(collectionId, ENGLISH, ENGLISH_PAGES);
  await uploadInto(collectionId, CHINESE, CHINESE_PAGES);
  session = await openPage(browser, stack().baseUrl, 'desktop');
  page = session.page;
});

afterAll(async () => {
  await browser?.close();
});

describe('a conversation in the web app', () => {
  it('answers an English follow-up from the passage the first question leads to', async () => {
    await page.goto('/');
    await logIn(page, user.username, user.password);
    await page.getByLabel('Collection', { exact: true }).selectOption({ label: COLLECTION });
    await expect
      .poll(() => page.locator('.scope').textContent())
      .toContain(`In the collection “${COLLECTION}”:`);
    // Nothing yet: the list says so, the header names a new conversation.
    await expect
      .poll(() => page.locator('.conversation-list-status').textContent())
      .toBe('No conversations yet: ask a question to start one.');
    expect(await headTitle(page)).toBe('New conversation');
    expect(
      await page.getByRole('button', { name: 'Conversations' }).getAttribute('aria-expanded'),
    ).toBe('true');

    const firstRequest = page.waitForRequest('**/modulechat/chat');
    await ask(page, FIRST);
    expect((await firstRequest).postDataJSON()).not.toHaveProperty('conversation_id');
    const first = await lastAnswer(page);
    expect(first.state).toBe('done');
    expect(first.text).toContain('14 days');
    // The stream's conversation event puts it in the list, open, and titles the header.
    await expect.poll(() => listItems(page).allTextContents()).toEqual([FIRST]);
    expect(await page.locator('.conversation-item').first().getAttribute('aria-current')).toBe(
      'true',
    );
    expect(await headTitle(page)).toBe(FIRST);
    expect(await page.locator('.chat-head-scope').textContent()).toBe(
      `Searches the collection “${COLLECTION}”`,
    );
    const [stored] = await conversationsOf();
    expect(stored!.title).toBe(FIRST);

    // The follow-up only makes sense after the first question: it continues the conversation
    // and is answered from the freight page.
    const followRequest = page.waitForRequest('**/modulechat/chat');
    await ask(page, FOLLOW_UP);
    expect((await followRequest).postDataJSON()).toMatchObject({ conversation_id: stored!.id });
    const follow = await lastAnswer(page);
    expect(follow.state).toBe('done');
    expect(follow.text).toContain('30 days');
    expect(follow.sources.join('\n')).toContain(ENGLISH);
    expect(await listItems(page).allTextContents()).toEqual([FIRST]);
    expect(await conversationsOf()).toHaveLength(1);
    // Feedback buttons under each answer.
    expect(await page.locator('.turn .feedback').count()).toBe(2);
    await page.mouse.move(0, 0);
    await screenshot(page, 'desktop-conversation');
    await expectNoViolations(page);
  });

  it('answers a Chinese follow-up in a new conversation, which goes to the top of the list', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await page.locator('.turn').count()).toBe(0);
    expect(await headTitle(page)).toBe('New conversation');
    expect(await page.locator('.conversation-item[aria-current="true"]').count()).toBe(0);

    const firstRequest = page.waitForRequest('**/modulechat/chat');
    await ask(page, FIRST_ZH);
    expect((await firstRequest).postDataJSON()).not.toHaveProperty('conversation_id');
    const first = await lastAnswer(page);
    expect(first.state).toBe('done');
    expect(first.text).toContain('13元');
    await expect.poll(() => listItems(page).allTextContents()).toEqual([FIRST_ZH, FIRST]);

    await ask(page, FOLLOW_UP_ZH);
    const follow = await lastAnswer(page);
    expect(follow.state).toBe('done');
    expect(follow.text).toContain('16元');
    expect(follow.sources.join('\n')).toContain(CHINESE);
    expect(await page.locator('.turn').count()).toBe(2);
    expect(await conversationsOf()).toHaveLength(2);
  });

  it('reopens the open conversation after a reload, its answers shown as they were', async () => {
    await page.reload();
    await expect.poll(() => page.locator('.turn').count()).toBe(2);
    expect(await page.locator('.turn .question-text').allTextContents()).toEqual([
      FIRST_ZH,
      FOLLOW_UP_ZH,
    ]);
    const answers = page.locator('.turn .answer');
    expect(
      await answers.evaluateAll((els) => els.map((el) => el.getAttribute('data-state'))),
    ).toEqual(['done', 'done']);
    expect(await answers.nth(1).locator('.markdown').textContent()).toContain('16元');
    expect(await answers.nth(1).locator('.sources li').first().textContent()).toContain(CHINESE);
    expect(await headTitle(page)).toBe(FIRST_ZH);
    await expect
      .poll(() => page.locator('.conversation-item[aria-current="true"]').textContent())
      .toContain(FIRST_ZH);
  });

  it('switches to the earlier conversation and continues it', async () => {
    await page.locator('.conversation-item', { hasText: FIRST }).click();
    await expect
      .poll(() => page.locator('.turn .question-text').allTextContents())
      .toEqual([FIRST, FOLLOW_UP]);
    expect(await headTitle(page)).toBe(FIRST);
    expect(await page.locator('.turn .answer .markdown').nth(1).textContent()).toContain('30 days');

    // A third question continues it, and the conversation moves to the top of the list.
    const [, english] = await conversationsOf();
    const request = page.waitForRequest('**/modulechat/chat');
    await ask(page, 'When does the freight yard open?');
    expect((await request).postDataJSON()).toMatchObject({ conversation_id: english!.id });
    const third = await lastAnswer(page);
    expect(third.text).toContain('6:00');
    await expect.poll(() => listItems(page).allTextContents()).toEqual([FIRST, FIRST_ZH]);
  });

  it('keeps feedback on answers: helpful, and not helpful with a comment shared with administrators', async () => {
    const turns = page.locator('.turn');
    const helpful = turns.nth(1).getByRole('button', { name: 'Helpful', exact: true });
    await helpful.click();
    await expect.poll(() => helpful.getAttribute('aria-pressed')).toBe('true');

    await turns.nth(0).getByRole('button', { name: 'Not helpful' }).click();
    const dialog = page.getByRole('dialog', { name: 'What was wrong with this answer?' });
    expect(await dialog.textContent()).toContain(
      'Answers marked as not helpful are shared with administrators for review',
    );
    await expectNoViolations(page);
    await dialog.getByLabel('Comment (optional)').fill(COMMENT);
    await dialog.getByRole('button', { name: 'Send' }).click();
    const unhelpful = turns.nth(0).getByRole('button', { name: 'Not helpful' });
    await expect.poll(() => unhelpful.getAttribute('aria-pressed')).toBe('true');
    expect(await turns.nth(0).locator('.feedback-comment').textContent()).toBe(
      `Your comment: ${COMMENT}`,
    );

    // A third answer marked helpful, then taken back.
    const third = turns.nth(2).getByRole('button', { name: 'Helpful', exact: true });
    await third.click();
    await expect.poll(() => third.getAttribute('aria-pressed')).toBe('true');
    await third.click();
    await expect.poll(() => third.getAttribute('aria-pressed')).toBe('false');

    await page.reload();
    await expect.poll(() => page.locator('.turn').count()).toBe(3);
    const pressed = (n: number, name: string) =>
      page
        .locator('.turn')
        .nth(n)
        .getByRole('button', { name, exact: true })
        .getAttribute('aria-pressed');
    expect(await pressed(0, 'Not helpful')).toBe('true');
    expect(await pressed(0, 'Helpful')).toBe('false');
    expect(await pressed(1, 'Helpful')).toBe('true');
    expect(await pressed(2, 'Helpful')).toBe('false');
    expect(await page.locator('.turn').nth(0).locator('.feedback-comment').textContent()).toBe(
      `Your comment: ${COMMENT}`,
    );
  });

  it('renames and deletes a conversation, with a dialog and a confirmation', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await ask(page, 'When does the freight office open?');
    expect((await lastAnswer(page)).state).toBe('done');
    await expect.poll(() => listItems(page).count()).toBe(3);
    const title = (await headTitle(page))!;

    await page.getByRole('button', { name: `Rename: ${title}` }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the conversation' });
    await rename.getByLabel('Title').fill('Freight office hours');
    await expectNoViolations(page);
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => headTitle(page)).toBe('Freight office hours');
    expect(await listItems(page).first().textContent()).toBe('Freight office hours');
    expect((await conversationsOf()).map((c) => c.title)).toContain('Freight office hours');

    await page.getByRole('button', { name: 'Delete: Freight office hours' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “Freight office hours”?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await listItems(page).count()).toBe(3);
    await page.getByRole('button', { name: 'Delete: Freight office hours' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await expect.poll(() => listItems(page).allTextContents()).toEqual([FIRST, FIRST_ZH]);
    expect(await page.locator('.turn').count()).toBe(0);
    expect(await headTitle(page)).toBe('New conversation');
    expect((await conversationsOf()).map((c) => c.title)).toEqual([FIRST, FIRST_ZH]);
    // After a reload the deleted one does not come back.
    await page.reload();
    await expect.poll(() => listItems(page).count()).toBe(2);
    expect(await page.locator('.turn').count()).toBe(0);
    expect(session.errors).toEqual([]);
  });
});

describe('unhelpful answers, for a super admin', () => {
  it('lists the answer with its question, comment, user and date', async () => {
    const admin = await openPage(browser, stack().baseUrl, 'desktop');
    try {
      await admin.page.goto('/');
      await logInAsAdmin(admin.page);
      await admin.page.getByRole('link', { name: 'Unhelpful answers' }).click();
      await expect
        .poll(() => admin.page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Unhelpful answers');
      const item = admin.page.locator('.review-item', { hasText: COMMENT });
      await expect.poll(() => item.count()).toBe(1);
      expect(await item.locator('.review-question').textContent()).toBe(FIRST);
      expect(await item.locator('.review-answer').textContent()).toContain('14 days');
      expect(await item.locator('.review-user').textContent()).toBe(user.username);
      expect(await item.locator('time').textContent()).toMatch(/\d{4}/);
      await screenshot(admin.page, 'desktop-unhelpful-answers');
      await expectNoViolations(admin.page);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
    // A user without the role is told they cannot.
    await page.goto('/#/unhelpful');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Access denied');
    expect(await page.getByRole('link', { name: 'Unhelpful answers' }).count()).toBe(0);
  });
});

describe('the Chinese page on a phone', () => {
  it('opens the list on request, switches, and shows feedback in Chinese', async () => {
    const phone = await openPage(browser, stack().baseUrl, 'phone', 'zh-CN');
    try {
      await phone.page.goto('/');
      await phone.page.getByLabel('用户名').fill(user.username);
      await phone.page.getByLabel('密码').fill(user.password);
      await phone.page.getByLabel('密码').press('Enter');
      await expect.poll(() => phone.page.locator('textarea').isVisible()).toBe(true);
      const toggle = phone.page.getByRole('button', { name: '对话列表' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await phone.page.locator('.conversation-list').isVisible()).toBe(false);
      expect(await headTitle(phone.page)).toBe('新对话');

      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => listItems(phone.page).allTextContents()).toEqual([FIRST, FIRST_ZH]);
      // The list takes the chat's place on a phone.
      expect(await phone.page.locator('textarea').isVisible()).toBe(false);
      await expectNoViolations(phone.page);
      await screenshot(phone.page, 'phone-zh-conversation-list');

      await phone.page.locator('.conversation-item', { hasText: FIRST_ZH }).click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await expect
        .poll(() => phone.page.locator('.turn .question-text').allTextContents())
        .toEqual([FIRST_ZH, FOLLOW_UP_ZH]);
      expect(await phone.page.locator('.chat-head-scope').textContent()).toBe(
        `检索资料集 “${COLLECTION}”`,
      );
      const group = phone.page
        .locator('.turn')
        .nth(1)
        .getByRole('group', { name: '这个回答有帮助吗？' });
      expect(await group.getByRole('button', { name: '有帮助', exact: true }).count()).toBe(1);
      expect(await group.getByRole('button', { name: '没有帮助', exact: true }).count()).toBe(1);
      await expectNoViolations(phone.page);
      await screenshot(phone.page, 'phone-zh-conversation');
      expect(
        await phone.page.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(390);
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
