// axe-core in the page under test, and keyboard-only steps.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * The serious and critical axe violations on the page as it is now. axe is evaluated through
 * the DevTools protocol, which the page's CSP does not govern, so the page keeps its real
 * policy while it is checked.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: {
              id: string;
              impact: string;
              help: string;
              nodes: { target: string[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
  });
}

/** What the focused element is called: its label, text or aria-label. */
export function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    const labelled = el.getAttribute('aria-label');
    const label = (el as HTMLInputElement).labels?.[0]?.textContent;
    return (labelled ?? label ?? el.textContent ?? '').trim();
  });
}

/** Presses Tab (or Shift+Tab) until the focused element's name matches; fails after `max`. */
export async function tabTo(
  page: Page,
  name: string | RegExp,
  opts: { back?: boolean; max?: number } = {},
) {
  const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
  for (let i = 0; i < (opts.max ?? 80); i += 1) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    if (matches(await focusedName(page))) return;
  }
  throw new Error(`tabTo: nothing named ${String(name)} took the focus`);
}

/** Whether the focused element shows where the focus is (outline or the focus ring). */
export function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return false;
    const style = getComputedStyle(el);
    return (
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
      style.boxShadow !== 'none'
    );
  });
}
