// Headless Chromium (Debian's, no browser download) driven by playwright-core, and the
// screenshots the e2e tests leave in test-results/screenshots/.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** A browser with a fresh, temporary profile (playwright's launch never reuses one). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions so far (CSP and Trusted Types violations too). */
  errors: string[];
}

/** A new, isolated context (its own storage) with one page at `viewport`. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport: ViewportName = 'desktop',
  /** The browser's language, which picks the app's (en-GB → English, zh-CN → Chinese). */
  locale = 'en-GB',
): Promise<Session> {
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORTS[viewport],
    isMobile: viewport === 'phone',
    hasTouch: viewport === 'phone',
    locale,
    timezoneId: 'UTC',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // A refused call (401, 403, 415…) is logged by Chromium as a failed resource load: the
    // tests expect some. Anything else logged as an error is a bug.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return { context, page, errors };
}

/** Saves `test-results/screenshots/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // Let the last stream chunk and layout settle before the picture.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.screenshot({ path: file });
  return file;
}
