/**
 * The text the metadata patterns read: NFKC (full-width digits and brackets become ASCII, the
 * ideographic space a space), Chinese-numeral dates in Arabic digits, the spaces a justified
 * printed line leaves between Chinese characters removed, Markdown heading marks dropped.
 * Every pattern then has one form to match.
 */

const HAN = '\\p{Script=Han}';
// Characters between which a printed line's justification spaces are noise.
const CJK_TIGHT = `[${HAN}，。、：；“”‘’《》〔〕（）()\\[\\]【】·—0-9]`;
// One space only: two or more (one body, two ideographic spaces, another) part names printed side by side.
const SPREAD = new RegExp(`(?<=${CJK_TIGHT}) (?=${CJK_TIGHT})`, 'gu');

const DIGITS: Readonly<Record<string, number>> = {
  〇: 0,
  零: 0,
  '○': 0,
  O: 0,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** 一 … 三十一 as a number; NaN when it is not a small Chinese numeral. */
export function chineseNumber(text: string): number {
  if (/^[〇零○O一二三四五六七八九]+$/u.test(text) && text.length > 1) {
    return Number([...text].map((c) => DIGITS[c]).join(''));
  }
  const match = /^([一二三四五六七八九])?(十)?([一二三四五六七八九])?$/u.exec(text);
  if (!match || text === '') return NaN;
  const [, tens, ten, units] = match;
  if (!ten) return tens && !units ? DIGITS[tens]! : NaN;
  return (tens ? DIGITS[tens]! : 1) * 10 + (units ? DIGITS[units]! : 0);
}

const CHINESE_DATE =
  /([〇零○O一二三四五六七八九]{4})年([一二三四五六七八九十]{1,2})月([一二三四五六七八九十]{1,3})日/gu;

/** 二〇二五年四月三十日 → 2025年4月30日 (everything else as it was). */
function arabicDates(text: string): string {
  return text.replace(CHINESE_DATE, (whole, year: string, month: string, day: string) => {
    const [y, m, d] = [chineseNumber(year), chineseNumber(month), chineseNumber(day)];
    return Number.isNaN(y) || Number.isNaN(m) || Number.isNaN(d) ? whole : `${y}年${m}月${d}日`;
  });
}

/** One page's (or the whole document's) text in the form the patterns read. */
export function normaliseText(text: string): string {
  return arabicDates(text.normalize('NFKC'))
    .replace(/\r\n?/g, '\n')
    .replace(SPREAD, '')
    .replace(/^#{1,6}[ \t]+/gmu, '');
}

/** The non-empty lines of a text, trimmed. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export const hasHan = (text: string) => /\p{Script=Han}/u.test(text);
