// Uploads are answered as soon as they are stored; the page then follows each file while it
// is read and indexed: a bar that only moves forward, words for each phase, the file not
// selectable until it is ready, outcomes announced once. Files already on their way when the
// page loads are followed too; a file can be deleted while it is processed; Word and Markdown
// documents are read, and answers cite their sections.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../../dev/fixtures/docx-builder';
import { makeTextPdf, manyPagesText } from '../../dev/fixtures/pdf-builder';
import { seriousViolations } from './a11y';
import { launchBrowser, openPage, screenshot, type Session } from './browser';
import {
  adminToken,
  ask,
  chooseFiles,
  deleteFileViaApi,
  embeddingsSlow,
  lastAnswerWhenEnded,
  listFiles,
  SHARED_COLLECTION_ID,
  modelControl,
  stack,
  unique,
  uploadAsyncViaApi,
  type FilePayload,
  moreItem,
} from './helpers';

const tag = unique('ingest');
const CHOOSE = 'Choose documents…';

let browser: Browser;
let session: Session;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  session = await openPage(browser, stack().baseUrl, 'desktop');
  page = session.page;
  await page.goto('/');
  await page.getByLabel('Username').fill(stack().admin.username);
  await page.getByLabel('Password').fill(stack().admin.password);
  await page.getByLabel('Password').press('Enter');
  await page.locator('.files-panel .count').waitFor();
});

afterEach(async () => {
  await modelControl('reset');
  const clear = page.getByRole('button', { name: 'Clear finished uploads' });
  if (await clear.isVisible()) await clear.click();
});

afterAll(async () => {
  await browser?.close();
  const token = await adminToken();
  for (const file of await listFiles(token)) {
    if (file.name.includes(tag)) await deleteFileViaApi(token, file.id);
  }
});

/** A PDF of `pages` long pages (about 6 chunks each), its text this file's own. */
function longPdf(name: string, pages: number): FilePayload {
  const texts = manyPagesText(pages).map((text) => `${text}\n${name}`);
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(makeTextPdf(texts)) };
}

/**
 * Records, in the page, each state of the named upload's row (its bar's value and words) and
 * each announcement of the uploads' status region.
 */
async function recordUpload(name: string): Promise<void> {
  await page.evaluate((name) => {
    const record = { bars: [] as { now: number | null; text: string }[], said: [] as string[] };
    Object.assign(window, { record });
    new MutationObserver(() => {
      const row = [...document.querySelectorAll('.upload')].find(
        (li) => li.querySelector('.upload-name')?.textContent === name,
      );
      const bar = row?.querySelector<HTMLElement>('[role="progressbar"]');
      if (bar && !bar.hidden && row?.getAttribute('data-state') === 'processing') {
        const now = bar.getAttribute('aria-valuenow');
        const text = bar.getAttribute('aria-valuetext') ?? '';
        const last = record.bars.at(-1);
        if (last?.text !== text || String(last.now) !== String(now)) {
          record.bars.push({ now: now === null ? null : Number(now), text });
        }
      }
      const said = document.querySelector('.uploads-box [role="status"]')?.textContent ?? '';
      if (said && record.said.at(-1) !== said) record.said.push(said);
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }, name);
}

/** What the chat says it searches, with this many ready files and files still processed. */
function scopeText(ready: number, processing: number): string {
  if (ready === 0) {
    return `No file can be searched yet: ${processing} ${processing === 1 ? 'file is' : 'files are'} still being processed.`;
  }
  return ready === 1 ? 'Searching the one file.' : `Searching all ${ready} files.`;
}

const recorded = () =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          record: { bars: { now: number | null; text: string }[]; said: string[] };
        }
      ).record,
  );

describe('a file on its way to the index', () => {
  it('is followed through reading and indexing to ready, and cannot be ticked meanwhile', async () => {
    // Each batch of 4 chunks waits for the model: indexing takes several seconds, enough for
    // the page's polling (which slows down while a file waits in the queue) to see it part-way
    // on a busy machine.
    await embeddingsSlow(1_200);
    const name = `register-${tag}.pdf`;
    // The page searches the collection it shows (the shared one); a super admin's list has every
    // collection's files, other test files' included.
    const ready = (await listFiles(await adminToken())).filter(
      (f) => f.status === 'ready' && f.collection.id === SHARED_COLLECTION_ID,
    );
    await recordUpload(name);
    await chooseFiles(page, CHOOSE, [longPdf(name, 4)]);

    // Once the list has it, its row alone shows it (the upload gives way to it), with its progress.
    const row = page.locator('.file', { hasText: name });
    const bar = row.getByRole('progressbar', { name: `Processing ${name}` });
    await expect
      .poll(() => bar.getAttribute('aria-valuetext'), { timeout: 30_000 })
      .toMatch(/^Indexing: \d+ of \d+ passages$/);
    // Its upload entry stays in the page, hidden, and still follows the file to its outcome.
    const upload = page.locator('.upload', { hasText: name });
    expect(await upload.isVisible()).toBe(false);

    // …and why it cannot be ticked yet.
    expect(await row.getAttribute('data-status')).toBe('processing');
    expect(await row.locator('.file-badge').textContent()).toBe('Processing');
    const rowBar = row.getByRole('progressbar', { name: `Processing ${name}` });
    expect(Number(await rowBar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(50);
    expect(await rowBar.getAttribute('aria-valuemin')).toBe('0');
    expect(await rowBar.getAttribute('aria-valuemax')).toBe('100');
    expect(await rowBar.getAttribute('aria-valuetext')).toMatch(/^Indexing: \d+ of \d+ passages$/);
    const checkbox = row.getByRole('checkbox', { name });
    expect(await checkbox.isDisabled()).toBe(true);
    const why = 'Not searchable yet: it can be selected for questions once it is read and indexed.';
    expect(await row.locator('.file-name').getAttribute('title')).toBe(why);
    expect(await row.locator('.file-note').textContent()).toBe(why);
    // Screen readers hear the reason with the checkbox.
    expect(
      await checkbox.evaluate((box) =>
        (box.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      ),
    ).toContain(why);
    // Questions do not search it yet.
    expect(await page.locator('.scope').textContent()).toBe(scopeText(ready.length, 1));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-processing');

    await expect.poll(() => upload.getAttribute('data-state'), { timeout: 60_000 }).toBe('added');
    expect(await upload.locator('.upload-status').textContent()).toMatch(
      /^Added: 4 pages, \d+ chunks\.$/,
    );
    await expect.poll(() => row.getAttribute('data-status')).toBe('ready');
    expect(await checkbox.isDisabled()).toBe(false);
    expect(await row.locator('.file-meta').textContent()).toMatch(/^4 pages · \d+ chunks · /);
    expect(await row.getByRole('progressbar').count()).toBe(0);
    // The counts come with the list asked for again once the file is ready.
    await expect
      .poll(() => page.locator('.scope').textContent())
      .toBe(scopeText(ready.length + 1, 0));

    const { bars, said } = await recorded();
    // Indexing was seen part-way, and the bar never went back.
    const indexing = bars
      .map((bar) => /^Indexing: (\d+) of (\d+) passages$/.exec(bar.text))
      .filter((match) => match !== null);
    expect(
      indexing.some(([, done, total]) => Number(done) > 0 && Number(done) < Number(total)),
    ).toBe(true);
    const values = bars.map((bar) => bar.now).filter((now) => now !== null);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    // Announced once per outcome, not at every step.
    expect(said).toEqual([
      '1 file added to the uploads.',
      `${name} is ready: questions can now use it. Uploads finished.`,
    ]);
  });

  it('is followed when it was on its way before the page loaded, until the list has it ready', async () => {
    // Slow enough that the file is still on its way once the page has reloaded.
    await embeddingsSlow(1_500);
    const name = `uploaded-elsewhere-${tag}.pdf`;
    const { id } = await uploadAsyncViaApi(
      await adminToken(),
      name,
      makeTextPdf(manyPagesText(3).map((text) => `${text}\n${name}`)),
    );
    await page.reload();
    const row = page.locator(`.file[data-file-id="${id}"]`);
    await expect.poll(() => row.getAttribute('data-status')).toMatch(/^(queued|processing)$/);
    await expect
      .poll(() => row.getByRole('progressbar', { name: `Processing ${name}` }).isVisible())
      .toBe(true);
    // Not an upload of this page: the list alone shows it.
    expect(await page.locator('.upload', { hasText: name }).count()).toBe(0);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 60_000 }).toBe('ready');
    expect(await row.getByRole('checkbox', { name }).isDisabled()).toBe(false);
    expect(await row.locator('.file-meta').textContent()).toMatch(/^3 pages · \d+ chunks · /);
  });

  it('can be deleted while it is processed, after a confirmation that says so', async () => {
    await embeddingsSlow(1_500);
    const name = `abandoned-${tag}.pdf`;
    await chooseFiles(page, CHOOSE, [longPdf(name, 3)]);
    const row = page.locator('.file', { hasText: name });
    await expect.poll(() => row.getAttribute('data-status')).toMatch(/^(queued|processing)$/);

    await (await moreItem(row, `More actions for ${name}`, `Delete ${name}`)).click();
    const dialog = page.getByRole('dialog', { name: 'Stop processing and delete this file?' });
    expect(await dialog.textContent()).toContain(`“${name}” is still being processed.`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await expect
      .poll(() => page.locator('.files-panel > [role="status"]').textContent())
      .toBe(`${name} was deleted.`);
    // Its upload had given way to its row; the row gone, the upload says what became of it.
    const upload = page.locator('.upload', { hasText: name });
    await expect.poll(() => upload.getAttribute('data-state')).toBe('deleted');
    expect(await upload.locator('.upload-status').textContent()).toBe(
      'The file was deleted while it was being processed.',
    );
    expect((await listFiles(await adminToken())).map((file) => file.name)).not.toContain(name);
  });
});

describe('documents other than PDFs', () => {
  it('offers every format in the picker, reads Word and Markdown, and cites their sections', async () => {
    const accept =
      (await page.locator('.dropzone input[type="file"]').getAttribute('accept')) ?? '';
    expect(accept.split(',')).toEqual(
      expect.arrayContaining([
        '.pdf',
        '.docx',
        '.html',
        '.htm',
        '.md',
        '.markdown',
        '.txt',
        'application/pdf',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'text/html',
        'text/markdown',
        'text/plain',
      ]),
    );
    // The collection has files: the dropzone is folded to its button, which says it on hover.
    expect(await page.locator('.dropzone button').getAttribute('title')).toContain(
      'Documents (PDF, Word, HTML, Markdown, text)',
    );

    const markdown = `ferry-${tag}.md`;
    const word = `quarry-${tag}.docx`;
    const docx = await makeDocx([
      ['Heading1', `Quarry permits ${tag}`],
      ['Heading2', 'Fees'],
      [null, 'A Glenmoor quarry permit costs 120 crowns a year, paid at the Elmstead office.'],
    ]);
    await chooseFiles(page, CHOOSE, [
      {
        name: markdown,
        mimeType: 'text/markdown',
        buffer: Buffer.from(
          `# Brackenfold ferry ${tag}\n\n## Winter timetable\n\n` +
            'In winter the Brackenfold ferry leaves the north pier at 07:40 and at 16:10.\n\n' +
            '## Summer timetable\n\nIn summer the ferry runs every hour from 06:00 to 22:00.\n',
        ),
      },
      {
        name: word,
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: Buffer.from(docx),
      },
    ]);
    for (const name of [markdown, word]) {
      const upload = page.locator('.upload', { hasText: name });
      await expect.poll(() => upload.getAttribute('data-state')).toBe('added');
      expect(await upload.locator('.upload-status').textContent()).toMatch(
        /^Added: \d+ sections?, \d+ chunks?\.$/,
      );
      expect(
        await page.locator('.file', { hasText: name }).locator('.file-meta').textContent(),
      ).toMatch(/^\d+ sections? · \d+ chunks? · /);
    }

    await page.getByRole('checkbox', { name: markdown }).check();
    await ask(page, 'When does the Brackenfold ferry leave in winter?');
    const answer = await lastAnswerWhenEnded(page);
    expect(await answer.getAttribute('data-state')).toBe('done');
    // Limited to a file that fits the context budget: the cited section, given whole (no
    // similarity).
    const meta = answer.locator('.source-meta').first();
    expect(await meta.textContent()).toMatch(
      new RegExp(`^section “Brackenfold ferry ${tag} › Winter timetable”$`),
    );
    await page.getByRole('button', { name: '中文' }).click();
    expect(await meta.textContent()).toMatch(
      new RegExp(`^章节“Brackenfold ferry ${tag} › Winter timetable”$`),
    );
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Search all files' }).click();
  });

  it('logged no errors: no CSP or Trusted Types violation, no uncaught exception', () => {
    expect(session.errors).toEqual([]);
  });
});
