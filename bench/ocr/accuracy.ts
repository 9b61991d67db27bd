/**
 * How closely OCR text matches the text printed on a page: the pure part of bench/ocr.ts.
 *
 * Both texts are NFKC-normalised (full-width digits and letters become ASCII, `，` becomes
 * `,`), then split into classes of characters compared separately, in order, by edit
 * distance (Levenshtein over code points):
 * - `hanDigits`: Han characters and decimal digits, the target measure for Chinese pages;
 * - `lettersDigits`: every letter and number (Latin words as well), for English pages;
 * - `punctuation`: punctuation marks (`，。、：；（）《》“”—` and their NFKC forms).
 * Whitespace counts in none of them: OCR puts spaces where glyphs are spread apart.
 */

export type CharacterClass = 'hanDigits' | 'lettersDigits' | 'punctuation';

const CLASSES: Record<CharacterClass, RegExp> = {
  hanDigits: /[\p{Script=Han}\p{Nd}]/u,
  lettersDigits: /[\p{L}\p{N}]/u,
  punctuation: /\p{P}/u,
};

/** The characters of `text` in one class, after NFKC, in order. */
export function charactersOf(text: string, kind: CharacterClass): string[] {
  return [...text.normalize('NFKC')].filter((char) => CLASSES[kind].test(char));
}

/** Levenshtein distance between two sequences (two rows of the table, O(n·m) time). */
export function editDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Errors against the reference: edits needed, and the reference's length. */
export interface Score {
  errors: number;
  length: number;
}

export function score(expected: string, actual: string, kind: CharacterClass): Score {
  const reference = charactersOf(expected, kind);
  return { errors: editDistance(reference, charactersOf(actual, kind)), length: reference.length };
}

/** Scores added up (pages of a fixture, fixtures of a run). */
export function sum(scores: readonly Score[]): Score {
  return scores.reduce(
    (total, s) => ({ errors: total.errors + s.errors, length: total.length + s.length }),
    {
      errors: 0,
      length: 0,
    },
  );
}

/** 1 − errors / length, as a percentage (0 when errors outnumber characters); null without any. */
export function accuracy(s: Score): number | null {
  if (s.length === 0) return null;
  return Math.max(0, 100 * (1 - s.errors / s.length));
}
