/**
 * Chinese (and Japanese) text has no spaces between words, so a space between two CJK
 * characters is an artefact of the layout: justified lines spread their characters apart and
 * pdf.js reports the gaps as spaces ("创 业 担 保 贷 款"). Latin words keep their spaces.
 */

/**
 * Han ideographs, kana, CJK punctuation (。，、「」…) and full-width forms (５０００, ＡＢＣ,
 * ，；：). Hangul is left out on purpose: Korean separates words with spaces.
 */
export const CJK_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\u3190-\u319f\u31c0-\u31ef\u3200-\u33ff\ufe30-\ufe4f\uff01-\uff60\uffe0-\uffe6]/u;

// Spaces that pdf.js infers from gaps; an ideographic space (U+3000) is a character the author
// typed ("第一条\u3000为…") and stays.
const SPACE_BETWEEN_CJK = new RegExp(
  `(?<=${CJK_CHAR.source})[^\\S\\u3000]+(?=${CJK_CHAR.source})`,
  'gu',
);
const SPACE_BY_CJK = new RegExp(
  `(?<=${CJK_CHAR.source}) (?=\\S)|(?<=\\S) (?=${CJK_CHAR.source})`,
  'gu',
);

export function isCjk(char: string | undefined): boolean {
  return char !== undefined && CJK_CHAR.test(char);
}

/**
 * Removes whitespace other than the ideographic space between two CJK characters. On a line whose CJK characters were spread
 * apart (most of them separated by spaces), a single space between a CJK character and a digit
 * or Latin letter is the same artefact and goes too ("每 月 1200 元" → "每月1200元"); spaces
 * between two Latin words always stay.
 */
export function removeCjkSpacing(line: string): string {
  const spread = isSpreadLine(line);
  const joined = line.replace(SPACE_BETWEEN_CJK, '');
  return spread ? joined.replace(SPACE_BY_CJK, '') : joined;
}

/** At least three CJK pairs on the line, and most of them separated by a space. */
function isSpreadLine(line: string): boolean {
  const chars = [...line];
  let spaced = 0;
  let tight = 0;
  for (let index = 1; index < chars.length; index++) {
    if (!isCjk(chars[index])) continue;
    if (isCjk(chars[index - 1])) tight += 1;
    else if (chars[index - 1] === ' ' && isCjk(chars[index - 2])) spaced += 1;
  }
  return spaced >= 3 && spaced > tight;
}
