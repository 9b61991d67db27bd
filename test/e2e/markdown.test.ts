// Answers as Markdown in the browser: what renders as structure (GFM tables, nested lists,
// code, task lists, strikethrough, autolinks) and what never renders at all (scripts, event
// handlers, javascript: and data: links, off-site images), under the page's real CSP and
// Trusted Types policy. The answers are scripted (./scripted-chat.ts), the rest is the stack.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot, type Session } from './browser';
import { ask, lastAnswerWhenEnded, logIn, stack } from './helpers';
import { scriptedChat, tokensOf, type ScriptedChat } from './scripted-chat';

const BENCH_DIR = path.resolve(import.meta.dirname, '../../bench-results');

let browser: Browser;
let chat: ScriptedChat;
let session: Session;
let page: Page;
const offOrigin: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  chat = await scriptedChat();
  session = await openPage(browser, chat.url, 'desktop');
  page = session.page;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== chat.url) offOrigin.push(request.url());
  });
});

afterAll(async () => {
  await browser?.close();
  await chat?.close();
});

async function answerWith(
  markdown: string,
  sources: Parameters<ScriptedChat['answerNext']>[0]['sources'] = [],
) {
  chat.answerNext({ tokens: tokensOf(markdown, 3), sources, pauseMs: 1, burst: 8 });
  await ask(page, 'Show me.');
  const answer = await lastAnswerWhenEnded(page);
  expect(await answer.getAttribute('data-state')).toBe('done');
  return answer.locator('.markdown');
}

const RICH = `## Fees by service

| Service | Fee | Waived for |
| :------ | --: | :--------: |
| Library card | ¥0 | everyone |
| 停车许可 | ¥120 | residents over 65 |

1. Apply online
   - with an ID card
   - or a passport
     1. scanned
     2. in colour
2. Wait ~~ten~~ five days

- [x] form filled in
- [ ] fee paid

\`\`\`json
{"refund": "<b>45 days</b>"}
\`\`\`

Inline \`code\`, **bold**, *emphasis*, see https://example.org/charter and [the portal](https://example.org/portal "Portal").`;

describe('an answer in Markdown', () => {
  it('is shown to a logged-in user', async () => {
    await page.goto('/');
    await logIn(page, stack().admin.username, stack().admin.password);
  });

  it('renders a GFM table, nested lists, code, a task list, strikethrough and links as such', async () => {
    const markdown = await answerWith(RICH);
    // The answer's headings sit under the page's: ## becomes h4.
    expect(await markdown.locator('h4').textContent()).toBe('Fees by service');

    const table = markdown.locator('table');
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Service',
      'Fee',
      'Waived for',
    ]);
    expect(await table.locator('tbody tr').count()).toBe(2);
    expect(await table.locator('tbody tr').nth(1).locator('td').allTextContents()).toEqual([
      '停车许可',
      '¥120',
      'residents over 65',
    ]);
    expect(await table.locator('thead th').nth(1).getAttribute('align')).toBe('right');

    const outer = markdown.locator(':scope > ol');
    expect(await outer.locator(':scope > li').count()).toBe(2);
    expect(await outer.locator(':scope > li > ul > li').count()).toBe(2);
    expect(await outer.locator(':scope > li > ul > li > ol > li').allTextContents()).toEqual([
      'scanned',
      'in colour',
    ]);
    expect(await outer.locator('del').textContent()).toBe('ten');

    const boxes = markdown.locator('ul input[type="checkbox"]');
    expect(await boxes.count()).toBe(2);
    expect(
      await boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked)),
    ).toEqual([true, false]);
    expect(
      await boxes.evaluateAll((els) => els.every((e) => (e as HTMLInputElement).disabled)),
    ).toBe(true);

    expect(await markdown.locator('pre > code').textContent()).toBe(
      '{"refund": "<b>45 days</b>"}\n',
    );
    expect(await markdown.locator('pre b').count()).toBe(0);
    expect(await markdown.locator('p > code').textContent()).toBe('code');
    expect(await markdown.locator('strong').last().textContent()).toBe('bold');
    expect(await markdown.locator('em').last().textContent()).toBe('emphasis');

    const links = await markdown
      .locator('a')
      .evaluateAll((els) =>
        els.map((a) => [
          a.textContent,
          a.getAttribute('href'),
          a.getAttribute('rel'),
          a.getAttribute('target'),
        ]),
      );
    expect(links).toEqual([
      [
        'https://example.org/charter',
        'https://example.org/charter',
        'noopener noreferrer nofollow',
        '_blank',
      ],
      ['the portal', 'https://example.org/portal', 'noopener noreferrer nofollow', '_blank'],
    ]);
    await screenshot(page, 'desktop-markdown');
  });

  it('never interprets markup, scripts, handlers, unsafe links or images from an answer', async () => {
    const hostile = [
      '<script>window.pwned = 1</script>',
      '<img src=x onerror="window.pwned = 2">',
      '<iframe src="javascript:window.pwned = 3"></iframe>',
      '<svg onload="window.pwned = 4"></svg>',
      '<a href="javascript:window.pwned = 5">raw link</a>',
      '',
      '[js link](javascript:window.pwned=6) [data link](data:text/html,<script>alert(1)</script>)',
      '[entity link](jav&#x61;script:window.pwned=7) <javascript:window.pwned=8>',
      '[relative](/moduleauth/me) [vb](vbscript:msgbox)',
      '',
      '![tracker](https://tracker.example/pixel.png) ![inline](data:image/png;base64,iVBORw0KGgo=)',
      '',
      '| <img src=x onerror="window.pwned=9"> | b |',
      '| - | - |',
      '| <b onmouseover="window.pwned=10">cell</b> | [x](javascript:alert(1)) |',
    ].join('\n');
    const markdown = await answerWith(hostile);
    const text = (await markdown.textContent()) ?? '';
    // Raw HTML is shown as the characters it is.
    expect(text).toContain('<script>window.pwned = 1</script>');
    expect(text).toContain('<img src=x onerror="window.pwned = 2">');
    expect(text).toContain('<b onmouseover="window.pwned=10">cell</b>');
    const conversation = page.locator('.conversation');
    expect(
      await conversation.locator('script, img, iframe, svg, object, embed, style, form').count(),
    ).toBe(0);
    expect(
      await conversation.evaluate((root) =>
        [...root.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
        ),
      ),
    ).toEqual([]);
    // Only http(s) links are links: the off-site image became a link to it, nothing loaded.
    const hrefs = await markdown
      .locator('a')
      .evaluateAll((els) => els.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['https://tracker.example/pixel.png']);
    expect(text).toContain('js link');
    expect(text).toContain('inline');
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
    ).toBeUndefined();
    expect(offOrigin).toEqual([]);
  });

  it('shows sources with hostile file names as text', async () => {
    const name = '<img src=x onerror="window.pwned=11">.pdf';
    await answerWith('See the source.', [
      { file_id: crypto.randomUUID(), file_name: name, page: 2, similarity: 0.61 },
    ]);
    const source = page.locator('.turn').last().locator('.sources li');
    expect(await source.getByRole('link').textContent()).toBe(name);
    expect(await page.locator('.sources img').count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
    ).toBeUndefined();
  });

  it('leaves no other way to turn a string into markup: Trusted Types are enforced', async () => {
    // Nothing so far was refused by the CSP or Trusted Types, or threw.
    expect(session.errors).toEqual([]);
    const attempts = await page.evaluate(() => {
      const tries: Record<string, () => unknown> = {
        innerHTML: () =>
          (document.body.appendChild(document.createElement('div')).innerHTML = '<b>x</b>'),
        insertAdjacentHTML: () => document.body.insertAdjacentHTML('beforeend', '<b>x</b>'),
        DOMParser: () => new DOMParser().parseFromString('<b>x</b>', 'text/html'),
        anotherPolicy: () =>
          (
            window as unknown as { trustedTypes: { createPolicy(n: string, o: object): unknown } }
          ).trustedTypes.createPolicy('mine', { createHTML: (s: string) => s }),
        samePolicyAgain: () =>
          (
            window as unknown as { trustedTypes: { createPolicy(n: string, o: object): unknown } }
          ).trustedTypes.createPolicy('kbchat-markdown', { createHTML: (s: string) => s }),
      };
      return Object.fromEntries(
        Object.entries(tries).map(([name, run]) => {
          try {
            run();
            return [name, 'allowed'];
          } catch (err) {
            return [name, (err as Error).name];
          }
        }),
      );
    });
    expect(attempts).toEqual({
      innerHTML: 'TypeError',
      insertAdjacentHTML: 'TypeError',
      DOMParser: 'TypeError',
      anotherPolicy: 'TypeError',
      samePolicyAgain: 'TypeError',
    });
    // Each refused attempt is reported as a violation; nothing before them was.
    expect(
      session.errors.filter((e) => !/Trusted Type|TrustedTypePolicy|TrustedHTML/.test(e)),
    ).toEqual([]);
  });
});

/** About 4,000 model tokens of the Markdown real answers use, in Chinese and English. */
function longAnswer(tokens: number): string {
  const sections: string[] = [];
  const definition = '\n\n[charter]: https://example.org/charter';
  for (let i = 1; [...sections.join('\n\n')].length < tokens * 4 - 400; i += 1) {
    sections.push(
      `### ${i}. 申请条件 / Eligibility`,
      `持有银杉卡的市民在第 ${i} 类服务中享受**八折**优惠；see [the charter][charter], part ${i}. Residents over 65 pay *nothing*.`,
      `1. 提交申请\n   - 身份证或护照\n   - proof of address\n2. Wait ~~ten~~ five days\n3. 领取结果`,
      `| 服务 | 费用 | 期限 |\n| :-- | --: | :-: |\n| 图书证 | ¥0 | ${i} 天 |\n| 停车许可 | ¥${i * 10} | 30 天 |`,
      '```\nrefund(days = 45)\n```',
    );
  }
  // Ends on a reference definition: it can change links anywhere, so the last frame renders
  // every block again, which measures a full render of the whole answer.
  const text = [...`${sections.join('\n\n')}\n\n${'The end. '.repeat(100)}`];
  return text.slice(0, tokens * 4 - definition.length).join('') + definition;
}

describe('a 4,000-token answer streamed token by token', () => {
  it('renders per animation frame, re-rendering only the blocks that changed', async () => {
    const tokens = tokensOf(longAnswer(4000), 4);
    await page.evaluate(() => performance.clearMeasures('kbchat:markdown'));
    const errorsBefore = session.errors.length;
    chat.answerNext({ tokens, pauseMs: 4, burst: 4 });
    const started = Date.now();
    await ask(page, 'Everything, please.');
    const answer = await lastAnswerWhenEnded(page);
    const streamMs = Date.now() - started;
    expect(await answer.getAttribute('data-state')).toBe('done');
    expect(await answer.locator('.markdown table').count()).toBeGreaterThan(20);

    const frames = await page.evaluate(() =>
      performance.getEntriesByName('kbchat:markdown').map((entry) => {
        const { detail, duration } = entry as PerformanceMeasure & {
          detail: { chars: number; blocks: number; rendered: number };
        };
        return { ms: duration, ...detail };
      }),
    );
    const last = frames.at(-1)!;
    // The final render (the reference definition arrives last and can change every link).
    const full = frames.reduce((a, b) => (b.rendered > a.rendered ? b : a));
    const incremental = frames.filter((frame) => frame !== full);
    const ms = incremental.map((frame) => frame.ms).sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
    const result = {
      tokens: tokens.length,
      characters: last.chars,
      blocks: last.blocks,
      frames: frames.length,
      streamMs,
      perFrameMs: { median: at(0.5), p95: at(0.95), max: ms.at(-1)! },
      // The cost of a frame as the answer grows: median of each quarter of the frames.
      perFrameMsByQuarter: [0, 1, 2, 3].map((q) => {
        const part = incremental
          .slice((q * incremental.length) / 4, ((q + 1) * incremental.length) / 4)
          .map((frame) => frame.ms)
          .sort((a, b) => a - b);
        return part[Math.floor(part.length / 2)];
      }),
      renderMsTotal: frames.reduce((sum, frame) => sum + frame.ms, 0),
      blocksRenderedPerFrame:
        incremental.reduce((sum, f) => sum + f.rendered, 0) / incremental.length,
      fullRenderMs: full.ms,
      fullRenderBlocks: full.rendered,
    };
    console.log(`markdown streaming: ${JSON.stringify(result, null, 2)}`);
    await mkdir(BENCH_DIR, { recursive: true });
    await writeFile(path.join(BENCH_DIR, 'markdown-stream.json'), JSON.stringify(result, null, 2));

    // One render per frame, not per token; each renders the last block or two (the one being
    // written, and the one before whose end it settles), not all of them.
    expect(frames.length).toBeLessThan(tokens.length / 2);
    expect(result.blocksRenderedPerFrame).toBeLessThan(5);
    expect(full.rendered).toBe(last.blocks);
    expect(session.errors.slice(errorsBefore)).toEqual([]);
  });
});
