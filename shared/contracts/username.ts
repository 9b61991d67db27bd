import { z } from 'zod';

/**
 * Usernames that cannot pass for someone else's. The name is NFKC-normalised (full-width
 * `ａｄｍｉｎ` is `admin`, compatibility forms fold) and refused when it carries what a reader
 * cannot see or tell apart:
 * - control, format (zero-width characters, bidi overrides such as U+202E), private-use and
 *   unassigned characters, line and paragraph separators, whitespace other than a plain space;
 * - letters of confusable scripts mixed in one name (a Cyrillic `а` in `admin`): Latin,
 *   Cyrillic and Greek never mix; Chinese, Japanese and Korean may mix with each other and
 *   with Latin (`王Wang`), as names in those languages do.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\s/u;

const SCRIPTS: readonly [string, RegExp][] = [
  ['latin', /\p{Script=Latin}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  [
    'cjk',
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u,
  ],
];

function scriptsOf(name: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of name) {
    if (!/\p{L}/u.test(char)) continue;
    scripts.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'other');
  }
  return scripts;
}

/** True when the letters of a name are of one script, or CJK with Latin. */
export function singleScript(name: string): boolean {
  const scripts = scriptsOf(name);
  if (scripts.size <= 1) return true;
  return scripts.size === 2 && scripts.has('latin') && scripts.has('cjk');
}

export const hasInvisible = (name: string) => INVISIBLE.test(name);

/** A username as accounts are created with it. */
export const Username = z
  .string()
  .overwrite((name) => name.normalize('NFKC'))
  .trim()
  .min(3)
  .max(50)
  .refine((name) => !hasInvisible(name), 'must not contain invisible or control characters')
  .refine(singleScript, 'must not mix letters of scripts that look alike (e.g. Latin and Cyrillic)')
  .describe('3 to 50 characters after NFKC normalisation; compared without regard to case.');
