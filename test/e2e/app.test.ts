// The web app in headless Chromium, as a super admin: log in, upload, ask, stop, delete, log
// out — one session, step by step (each step starts where the previous one left the page).
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHINESE_POLICY_FIXTURE,
  ENGLISH_POLICY_FIXTURE,
  makeTextPdf,
} from '../../dev/fixtures/pdf-builder';
import { launchBrowser, openPage, screenshot, type Session } from './browser';
import {
  adminToken,
  ask,
  deleteFileViaApi,
  lastAnswerWhenEnded,
  newConversation,
  listFiles,
  logIn,
  paddedPdf,
  pdfFile,
  PNG,
  slowUploadProxy,
  stack,
  unique,
  moreItem,
} from './helpers';

const ENGLISH = 'riverton-charter.pdf';
const CHINESE = '青禾市公共服务政策.pdf';
const HOSTILE = 'quillfeather-notice.pdf';

let browser: Browser;
let session: Session;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  session = await openPage(browser, stack().baseUrl, 'desktop');
  page = session.page;
  // Every request the page makes stays on this origin: no CDN, no third party.
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== stack().baseUrl) {
      session.errors.push(`request to another origin: ${request.url()}`);
    }
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('a super admin’s session on a desktop screen', () => {
  it('shows the login page and says so when the password is wrong', async () => {
    await page.goto('/');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Knowledge-base chat' }).isVisible())
      .toBe(true);
    await screenshot(page, 'desktop-login');
    await page.locator('.login').getByLabel('Username').fill(stack().admin.username);
    await page.locator('.login').getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Wrong username or password, or the account is disabled.');
  });

  it('logs in and shows who the user is, and an empty knowledge base', async () => {
    await logIn(page, stack().admin.username, stack().admin.password);
    await expect.poll(() => page.locator('.topbar .badge').textContent()).toBe('Super admin');
    await expect.poll(() => page.getByRole('link', { name: 'Users' }).isVisible()).toBe(true);
    await expect
      .poll(() => page.locator('.files-panel .empty').textContent())
      .toContain('No documents yet');
    expect(await page.locator('.scope').textContent()).toContain('The knowledge base is empty');
    expect(await page.locator('.chat-empty').textContent()).toContain('Ask about your documents');
    // The question box has the focus: the keyboard user can type at once.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await page.getByLabel('Your question').getAttribute('id'),
    );
    await screenshot(page, 'desktop-empty');
  });

  it('uploads with the file picker, one row per file; a file that is no document is refused in plain words', async () => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose documents…' }).click();
    await (
      await chooser
    ).setFiles([
      pdfFile(ENGLISH, ENGLISH_POLICY_FIXTURE.pages),
      // An image, whatever its name says: formats are told apart by their bytes.
      { name: 'notes.pdf', mimeType: 'application/pdf', buffer: PNG },
    ]);
    const english = page.locator('.upload', { hasText: ENGLISH });
    const notes = page.locator('.upload', { hasText: 'notes.pdf' });
    await expect.poll(() => english.getAttribute('data-state')).toBe('added');
    expect(await english.locator('.upload-status').textContent()).toBe('Added: 3 pages, 4 chunks.');
    await expect.poll(() => notes.getAttribute('data-state')).toBe('failed');
    expect(await notes.locator('.upload-status').textContent()).toBe(
      'The file is not a document the service can read. Upload a PDF, a Word document (.docx), HTML, Markdown or plain text. If it is an older Word (.doc), WPS (.wps) or OFD file, save it as .docx or PDF first and upload that.',
    );
    const row = page.locator('.file', { hasText: ENGLISH });
    await expect
      .poll(() => row.locator('.file-meta').textContent())
      .toMatch(/3 pages · 4 chunks · 2\.\d KB/);
    expect(await row.locator('.file-meta').textContent()).toContain(stack().admin.username);
    expect(await row.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await screenshot(page, 'desktop-uploaded');
  });

  it('says when the same file was already there', async () => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose documents…' }).click();
    await (await chooser).setFiles([pdfFile('copy-of-charter.pdf', ENGLISH_POLICY_FIXTURE.pages)]);
    const copy = page.locator('.upload', { hasText: 'copy-of-charter.pdf' });
    await expect.poll(() => copy.getAttribute('data-state')).toBe('duplicate');
    expect(await copy.locator('.upload-status').textContent()).toBe(
      `Already in this collection as “${ENGLISH}”; nothing was added.`,
    );
    expect(await page.locator('.file').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear finished uploads' }).click();
    expect(await page.locator('.upload').count()).toBe(0);
  });

  it('asks a question: the answer streams in as Markdown, the context is folded away, sources open the cited page', async () => {
    // Count how often the answer changes while it arrives: a stream, not one block at the end.
    await page.evaluate(() => {
      const seen = { renders: 0 };
      Object.assign(window, { seen });
      new MutationObserver(() => (seen.renders += 1)).observe(
        document.querySelector('.conversation')!,
        { childList: true, subtree: true },
      );
    });
    await ask(page, 'What does the Marrowbank refund rule say?');
    const answer = page.locator('.turn').last().locator('.answer');
    await expect.poll(() => answer.getAttribute('data-state')).toBe('streaming');
    // The send button waits while an answer streams; the stop button is offered.
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('done');
    expect(
      await page.evaluate(() => (window as unknown as { seen: { renders: number } }).seen.renders),
    ).toBeGreaterThan(5);

    // Numbered points, rendered as a list.
    const points = answer.locator('.markdown ol > li');
    expect(await points.count()).toBeGreaterThanOrEqual(1);
    expect(await answer.locator('.markdown').textContent()).toContain('Marrowbank');
    // The echoed prompt with the retrieved context and the scores: behind Details, and it opens.
    const details = answer.locator('details.source-details');
    expect(await details.getAttribute('open')).toBeNull();
    expect(await details.locator('.context-text').isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.locator('.context-text').isVisible()).toBe(true);
    expect(await details.locator('.context-text').textContent()).toContain('<context>');
    expect(await details.locator('.source-scores tbody tr').first().textContent()).toMatch(
      /0\.\d\d/,
    );
    await details.locator('summary').click();

    // Sources: the cited ones, each with its number, file and page, opening the viewer.
    const sources = answer.locator('.sources > .source-list > li');
    expect(await sources.count()).toBeGreaterThanOrEqual(1);
    expect(await sources.first().textContent()).toMatch(
      new RegExp(`^\\[\\d+\\]${ENGLISH.replace('.', '\\.')}page 1$`),
    );
    const link = sources.first().locator('.source-link');
    expect(await link.getAttribute('href')).toMatch(/^#\/doc\/[0-9a-f-]{36}\?page=1&chunk=\d+$/);
    await link.click();
    const viewer = page.getByRole('dialog');
    await expect.poll(() => viewer.locator('mark.passage').count()).toBeGreaterThan(0);
    // The original's address carries no token (it would show on hover, in history, in proxy
    // logs): the viewer's download fetches it with the token in the header.
    const original = viewer.getByRole('link', { name: 'Download the original' });
    expect(await original.getAttribute('href')).toMatch(
      /^\/moduleknowledge\/download\?id=[0-9a-f-]{36}$/,
    );
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const download = page.waitForEvent('download');
    await original.click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(ENGLISH);
    const bytes = await readFile((await file.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(requested.some((url) => url.includes('/moduleknowledge/download'))).toBe(true);
    expect(requested.filter((url) => /[?&]t=/.test(url))).toEqual([]);
    await viewer.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => viewer.count()).toBe(0);

    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(false);
    await page.mouse.move(0, 0);
    await screenshot(page, 'desktop-chat-answer');
  });

  it('uploads the Chinese PDF by drag and drop, and answers a Chinese question from it', async () => {
    const bytes = [...makeTextPdf(CHINESE_POLICY_FIXTURE.pages)];
    const data = await page.evaluateHandle(
      ({ name, bytes }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
        return transfer;
      },
      { name: CHINESE, bytes },
    );
    await page.dispatchEvent('.dropzone', 'dragenter', { dataTransfer: data });
    await page.dispatchEvent('.dropzone', 'dragover', { dataTransfer: data });
    expect(await page.locator('.dropzone').getAttribute('class')).toContain('dragging');
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: data });
    const row = page.locator('.upload', { hasText: CHINESE });
    await expect.poll(() => row.getAttribute('data-state')).toBe('added');
    expect(await row.locator('.upload-status').textContent()).toBe('Added: 2 pages, 2 chunks.');
    await expect.poll(() => page.locator('.file').count()).toBe(2);

    await ask(page, '银杉卡有什么优惠？');
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('done');
    expect(await answer.locator('.markdown').textContent()).toContain('银杉卡');
    expect(await answer.locator('.sources li').first().textContent()).toContain(CHINESE);
  });

  it('limits a question to the selected files', async () => {
    await page.getByRole('checkbox', { name: CHINESE }).check();
    await expect
      .poll(() => page.locator('.scope').textContent())
      .toContain(`Searching only: ${CHINESE}`);
    expect(await page.locator('.selection-bar').textContent()).toContain('1 file selected');
    // The refund rule is in the English file only. Limited to the Chinese one, the model gets
    // that file's whole text (no similarity refusal: the user chose it) and says it does not
    // know; the sources are the Chinese file's pages only.
    // An unrelated question: asked in a new conversation, not as a follow-up of the last.
    await newConversation(page);
    await ask(page, 'What does the Marrowbank refund rule say?');
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('done');
    expect(await answer.locator('.markdown').textContent()).toMatch(/I don't know/);
    // The page says how: the chosen file was read whole (the done event's mode).
    await expect
      .poll(() => answer.locator('.answer-mode').textContent())
      .toBe('Answered from the whole text of the chosen files.');
    for (const source of await answer.locator('.sources li').allTextContents()) {
      expect(source).toContain(CHINESE);
    }
    expect(await page.locator('.turn').last().locator('.question-scope').textContent()).toBe(
      `In: ${CHINESE}`,
    );
    await page.getByRole('button', { name: 'Search all files' }).click();
    expect(await page.getByRole('checkbox', { name: CHINESE }).isChecked()).toBe(false);
    await expect.poll(() => page.locator('.scope').textContent()).toBe('Searching all 2 files.');
  });

  it('an unrelated question gets the refusal, shown apart from answers', async () => {
    // An unrelated question: asked in a new conversation, not as a follow-up of the last.
    await newConversation(page);
    await ask(page, 'zebra quantum volcano');
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('refused');
    expect(await answer.locator('.answer-notice.refusal p').first().textContent()).toBe(
      'Sorry, no relevant information was found, so no answer can be given.',
    );
    // Why: the closest passage the service found (the refusal event), the scores folded.
    await expect
      .poll(() => answer.locator('.refusal-reason p').first().textContent())
      .toMatch(/^The closest passage found is not about .+: (.+\.pdf) · (.+ · )?page \d+$/);
    const why = answer.locator('details.refusal-scores');
    expect(await why.getAttribute('open')).toBeNull();
    expect(await why.textContent()).toMatch(
      /similarity to the question is 0\.[0-4]\d; an answer needs 0\.50/,
    );
    expect(await answer.locator('.markdown').textContent()).toBe('');
    expect(await answer.locator('.answer-mode').isVisible()).toBe(false);
    expect(await answer.locator('.sources').isVisible()).toBe(false);
    expect(await answer.locator('details.context').isVisible()).toBe(false);
    await screenshot(page, 'desktop-chat-refusal');

    // Asked again within that file: its text is read (no similarity refusal), the file ticked.
    const file = (await answer.locator('.refusal-reason a').textContent())!;
    const turns = await page.locator('.turn').count();
    await answer.getByRole('button', { name: `Ask in ${file} only` }).click();
    await expect.poll(() => page.locator('.turn').count()).toBe(turns + 1);
    const within = await lastAnswerWhenEnded(page);
    expect(await within.getAttribute('data-state')).toBe('done');
    const question = page.locator('.turn').last().locator('.question-scope');
    expect(await question.textContent()).toContain(file);
    expect(await page.getByRole('checkbox', { name: file }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Search all files' }).click();
  });

  it('the stop button ends an answer while it streams', async () => {
    // An unrelated question: asked in a new conversation, not as a follow-up of the last.
    await newConversation(page);
    await ask(page, 'What does the Marrowbank refund rule say? List every point.');
    const answer = page.locator('.turn').last().locator('.answer');
    // The first answer chunk is on the page: the model is streaming.
    await expect
      .poll(() => answer.locator('.markdown').textContent(), { interval: 5 })
      .not.toBe('');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => answer.getAttribute('data-state')).toBe('stopped');
    expect(await answer.locator('.answer-notice.stopped').textContent()).toMatch(/^Stopped\. /);
    expect(await answer.locator('.sources .source-list').count()).toBe(0);
    const partial = await answer.locator('.markdown').textContent();
    // Nothing more arrives once stopped.
    await page.waitForTimeout(1_500);
    expect(await answer.locator('.markdown').textContent()).toBe(partial);
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    // The question and its partial answer stay on the page; the earlier conversations are
    // listed beside it.
    expect(await page.locator('.turn .question-text').allTextContents()).toEqual([
      'What does the Marrowbank refund rule say? List every point.',
    ]);
    await expect
      .poll(async () =>
        (await page.locator('.conversation-item .conversation-item-title').allTextContents()).slice(
          0,
          4,
        ),
      )
      .toEqual([
        'What does the Marrowbank refund rule say? List every point.',
        'zebra quantum volcano',
        'What does the Marrowbank refund rule say?',
        'What does the Marrowbank refund rule say?',
      ]);
  });

  it('shows markup from documents and answers as text, never as HTML', async () => {
    const hostile =
      'Quillfeather notice: <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script> ' +
      '<a href="javascript:window.pwned=3">click</a> **bold** and [a link](javascript:alert(1)).';
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose documents…' }).click();
    await (await chooser).setFiles([pdfFile(HOSTILE, [hostile])]);
    await expect
      .poll(() => page.locator('.upload', { hasText: HOSTILE }).getAttribute('data-state'))
      .toBe('added');

    // An unrelated question: asked in a new conversation, not as a follow-up of the last.
    await newConversation(page);
    await ask(page, 'What does the Quillfeather notice say?');
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('done');
    const text = await answer.locator('.markdown').textContent();
    // Tag openers arrive neutralised (CHAT_NEUTRALISE_MARKUP, for the original's HTML-enabled
    // client): shown as text either way.
    expect(text).toContain('＜img src=x onerror="window.pwned=1">');
    expect(text).toContain('＜script>window.pwned=2＜/script>');
    expect(await answer.locator('.markdown strong').first().textContent()).toBe('bold');
    expect(
      await page.locator('.conversation img, .conversation script, .conversation iframe').count(),
    ).toBe(0);
    expect(await page.locator('.conversation a[href^="javascript:"]').count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
    ).toBeUndefined();
  });

  it('deletes a file after asking for confirmation', async () => {
    const row = page.locator('.file', { hasText: HOSTILE });
    // Delete is under the row's More menu.
    await (await moreItem(row, `More actions for ${HOSTILE}`, `Delete ${HOSTILE}`)).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this file?' });
    expect(await dialog.textContent()).toContain(HOSTILE);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);

    await (await moreItem(row, `More actions for ${HOSTILE}`, `Delete ${HOSTILE}`)).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await listFiles(await adminToken())).map((f) => f.name)).not.toContain(HOSTILE);
    expect(await page.locator('.files-panel .count').textContent()).toBe('2 files');
  });

  it('a refused token brings back the login page with a message, keeping what was typed', async () => {
    // An unrelated question: asked in a new conversation, not as a follow-up of the last.
    await newConversation(page);
    const draft = 'And what about appeals to the Orvindale panel?';
    await page.getByLabel('Your question').fill(draft);
    // The token is no longer accepted (as when it expires or the user is disabled).
    await page.evaluate(() => sessionStorage.setItem('kbchat.token', 'expired.or.revoked'));
    await page.getByLabel('Your question').press('Enter');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(
        'Your session has expired or was refused. Log in again to continue: what you typed is kept.',
      );
    expect(await page.locator('.login').getByLabel('Username').inputValue()).toBe(
      stack().admin.username,
    );
    expect(await page.locator('.app').isVisible()).toBe(false);

    await page.locator('.login').getByLabel('Password').fill(stack().admin.password);
    await page.locator('.login').getByLabel('Password').press('Enter');
    await expect.poll(() => page.getByLabel('Your question').inputValue()).toBe(draft);
    // The conversation on screen is as it was (a new one, the refused question not in it).
    expect(await page.locator('.turn').count()).toBe(0);
    await ask(page, draft);
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('done');
    expect(await answer.locator('.markdown').textContent()).toContain('Orvindale');
  });

  it('logs out', async () => {
    // Log out is in the user menu, behind the button with the username.
    await page.locator('.user-menu .menu-button').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('You have logged out.');
    expect(await page.evaluate(() => sessionStorage.getItem('kbchat.token'))).toBeNull();
    await page.reload();
    await expect.poll(() => page.locator('.login').getByLabel('Username').isVisible()).toBe(true);
    expect(await page.locator('.app').count()).toBe(0);
  });

  it('logged no errors: no CSP or Trusted Types violation, no uncaught exception', () => {
    expect(session.errors).toEqual([]);
  });
});

describe('upload progress', () => {
  it('shows a progress bar per file while it uploads, then while it is processed', async () => {
    // 8 MB through a link that takes about 2 MB/s: progress is reported on the way.
    const proxy = await slowUploadProxy(2 * 1024 * 1024);
    const slow = await openPage(browser, proxy.url, 'desktop');
    const name = `${unique('large-charter')}.pdf`;
    try {
      await slow.page.goto('/');
      await logIn(slow.page, stack().admin.username, stack().admin.password);
      // Every state of the row with its bar's value, as they come.
      await slow.page.evaluate(() => {
        const values: string[] = [];
        Object.assign(window, { values });
        new MutationObserver(() => {
          const row = document.querySelector('.upload');
          const bar = row?.querySelector<HTMLElement>('[role="progressbar"]');
          const value = bar?.hidden ? 'none' : (bar?.dataset.value ?? 'indeterminate');
          const seen = `${row?.getAttribute('data-state')}:${value}`;
          if (values.at(-1) !== seen) values.push(seen);
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      const pdf = paddedPdf(
        makeTextPdf(ENGLISH_POLICY_FIXTURE.pages.map((page) => `${page}\n${name}`)),
        8 * 1024 * 1024,
      );
      const chooser = slow.page.waitForEvent('filechooser');
      await slow.page.getByRole('button', { name: 'Choose documents…' }).click();
      await (
        await chooser
      ).setFiles([{ name, mimeType: 'application/pdf', buffer: Buffer.from(pdf) }]);

      const row = slow.page.locator('.upload', { hasText: name });
      const bar = row.getByRole('progressbar', { name: `Uploading ${name}` });
      await expect
        .poll(async () => Number((await bar.getAttribute('aria-valuenow')) ?? 0), { interval: 20 })
        .toBeGreaterThan(0);
      expect(await bar.getAttribute('aria-valuetext')).toMatch(/^Uploading… \d+%$/);
      expect(await row.locator('.upload-status').textContent()).toMatch(/^Uploading… \d+%$/);
      await screenshot(slow.page, 'desktop-uploading');
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 60_000 }).toBe('added');

      const seen = await slow.page.evaluate(
        () => (window as unknown as { values: string[] }).values,
      );
      const fractions = seen
        .filter((v) => v.startsWith('uploading:'))
        .map((v) => Number(v.slice('uploading:'.length)));
      expect(fractions.some((f) => f > 0 && f < 1)).toBe(true);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
      // Once the bytes are sent, the service's answer, then the file's own progress.
      expect(seen.indexOf('sent:indeterminate')).toBeGreaterThan(seen.indexOf('uploading:1'));
      expect(seen.findIndex((v) => v.startsWith('processing:'))).toBeGreaterThan(
        seen.indexOf('sent:indeterminate'),
      );
      expect(seen.at(-1)).toBe('added:none');
      expect(slow.errors).toEqual([]);
    } finally {
      await slow.context.close();
      await proxy.close();
      const token = await adminToken();
      for (const file of await listFiles(token)) {
        if (file.name === name) await deleteFileViaApi(token, file.id);
      }
    }
  });
});

describe('a phone-sized screen', () => {
  it('logs in, asks and answers, lists the files, all on 390 px', async () => {
    const phone = await openPage(browser, stack().baseUrl, 'phone');
    try {
      await phone.page.goto('/');
      await expect
        .poll(() => phone.page.locator('.login').getByLabel('Username').isVisible())
        .toBe(true);
      await screenshot(phone.page, 'phone-login');
      await logIn(phone.page, stack().admin.username, stack().admin.password);
      // One pane at a time: the chat first, the files behind their tab.
      expect(await phone.page.locator('.files-panel').isVisible()).toBe(false);
      await ask(phone.page, 'Who may appeal to the Orvindale Appeals Panel, and how?');
      const answer = await lastAnswerWhenEnded(phone.page);
      expect(await answer.getAttribute('data-state')).toBe('done');
      await screenshot(phone.page, 'phone-chat-answer');

      await phone.page.getByRole('button', { name: /^Files \(\d+\)$/ }).click();
      expect(await phone.page.locator('.chat-panel').isVisible()).toBe(false);
      await expect.poll(() => phone.page.locator('.file').count()).toBe(2);
      await screenshot(phone.page, 'phone-files');
      // Nothing is wider than the screen.
      expect(
        await phone.page.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(390);
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
