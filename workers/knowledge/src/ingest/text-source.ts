import type { PageTextSource } from './pdf-layout.ts';

/**
 * Judges a PDF page's text layer — usable, repairable, or not worth keeping — and repairs the
 * known deterministic font-map faults, so that each page's text comes from the right reader:
 * its text layer, its text layer repaired, or OCR (ocr-layout.ts).
 *
 * The fault repaired: fonts of many Chinese government PDFs map their glyphs to GB2312 codes
 * written out as if they were Unicode code points. GB2312 rows 1 (punctuation) and 3
 * (full-width ASCII) then land in the Yi Syllables block: `，` (GB2312 A3AC) reads as `ꎬ`
 * (U+A3AC), `、` (A1A2) as U+A1A2, `０` (A3B0) as U+A3B0. The mapping back is exact, row by
 * row. Pages whose text is mostly Yi (a Liangshan notice really written in Yi) are left alone:
 * the repair applies only where Han characters outnumber the Yi ones.
 */

/** GB2312 row 1 (A1A1–A1FE): punctuation and symbols, in code order. */
const GB2312_ROW_1 =
  '\u3000、。·ˉˇ¨〃々—～‖…‘’“”〔〕〈〉《》「」『』〖〗【】±×÷∶∧∨∑∏∪∩∈∷√⊥∥∠⌒⊙∫∮≡≌≈∽∝≠≮≯≤≥∞∵∴♂♀°′″℃＄¤￠￡‰§№☆★○●◎◇◆□■△▲※→←↑↓〓';

/**
 * The character a Yi-block code point stands for under the fault, or undefined. Row 3 is
 * full-width ASCII (A3A1 `！` … A3FE `￣`, with A3A4 `￥`); A3AE is GB2312's full-width full
 * stop `．`, which these documents print where Chinese text has `。` (their `。` reads as `ꎮ`).
 */
export function gb2312Fault(codePoint: number): string | undefined {
  if (codePoint >= 0xa1a1 && codePoint <= 0xa1fe) return GB2312_ROW_1[codePoint - 0xa1a1];
  if (codePoint === 0xa3ae) return '。';
  if (codePoint === 0xa3a4) return '￥';
  if (codePoint === 0xa3fe) return '￣';
  if (codePoint >= 0xa3a1 && codePoint <= 0xa3fd)
    return String.fromCodePoint(0xff01 + codePoint - 0xa3a1);
  return undefined;
}

/** A page with fewer letters and digits than this has no text layer worth reading: a scan. */
export const MIN_PAGE_CHARACTERS = 10;
/** A page where more than this share of its characters is junk is garbled beyond repair. */
export const MAX_JUNK_SHARE = 0.1;
/** Accented Latin letters making up more than this share of the letters: mojibake. */
const MAX_MOJIBAKE_SHARE = 0.4;

const HAN = /\p{Script=Han}/u;
const YI = /\p{Script=Yi}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// Private use (BMP and planes 15–16), the replacement character, controls other than
// whitespace, and unassigned code points: what a font map without meaning yields.
const JUNK = /[\p{Co}\uFFFD\p{Cn}]|[^\P{Cc}\t\n\r]/u;
// Latin-1 Supplement and Latin Extended-A/B letters: single-byte codes of a CJK font read as
// Windows-1252 ("¹ØÓÚ" for 关于) come out as these.
const ACCENTED_LATIN = /[\u00c0-\u024f]/u;

export interface PageVerdict {
  source: PageTextSource;
  /** Maps a piece of the page's text to its repaired form (identity unless `repaired`). */
  repair: (text: string) => string;
}

const unchanged = (text: string) => text;

/** Judges one page from all of its text items' strings. */
export function judgePage(texts: readonly string[]): PageVerdict {
  let han = 0;
  let yi = 0;
  let faults = 0;
  for (const text of texts) {
    for (const char of text) {
      if (HAN.test(char)) han++;
      else if (YI.test(char)) {
        yi++;
        if (gb2312Fault(char.codePointAt(0)!) !== undefined) faults++;
      }
    }
  }
  const repairing = faults > 0 && han > yi;
  const repair = repairing ? repairFaults : unchanged;
  const counts = countCharacters(repairing ? texts.map(repairFaults) : texts);
  const noText = { source: { kind: 'text_layer', needsOcr: 'no_text' }, repair } as const;
  if (counts.total < MIN_PAGE_CHARACTERS) return noText;
  const junkShare = (counts.junk + (repairing ? 0 : yiJunk(han, yi))) / counts.total;
  const mojibake = counts.letters > 0 && counts.accented / counts.letters > MAX_MOJIBAKE_SHARE;
  if (junkShare > MAX_JUNK_SHARE || (mojibake && han === 0)) {
    return { source: { kind: 'text_layer', needsOcr: 'garbled' }, repair };
  }
  if (counts.meaningful < MIN_PAGE_CHARACTERS) return noText;
  if (repairing) return { source: { kind: 'repaired', repairs: faults }, repair };
  return { source: { kind: 'text_layer' }, repair };
}

/** Yi syllables amid Han text that are not the known fault: junk. */
function yiJunk(han: number, yi: number): number {
  return han > yi ? yi : 0;
}

/** Replaces every faulty code point with the character it stands for. */
export function repairFaults(text: string): string {
  let out = '';
  for (const char of text) out += gb2312Fault(char.codePointAt(0)!) ?? char;
  return out;
}

function countCharacters(texts: readonly string[]) {
  let total = 0;
  let meaningful = 0;
  let junk = 0;
  let letters = 0;
  let accented = 0;
  for (const text of texts) {
    for (const char of text) {
      if (/\s/u.test(char)) continue;
      total++;
      if (JUNK.test(char)) {
        junk++;
        continue;
      }
      if (LETTER_OR_DIGIT.test(char)) meaningful++;
      if (/\p{L}/u.test(char)) {
        letters++;
        if (ACCENTED_LATIN.test(char)) accented++;
      }
    }
  }
  return { total, meaningful, junk, letters, accented };
}
