/**
 * The document-level last step of extraction: page layouts (pdf-layout.ts) become page texts.
 * Page furniture is dropped (page-furniture.ts), each paragraph's visual lines are joined into
 * running text, a table's rows stay one a line (a Markdown table, pdf-tables.ts), and
 * paragraphs are separated by a blank line.
 *
 * Joining lines: no space where either side is CJK (a Chinese line breaks inside a word:
 * "符合条" + "件" is "符合条件"), one space between Latin words, and a Latin word split with a
 * hyphen at the line end is rejoined ("employ-" + "ment" → "employment") unless the hyphen is
 * real: the next line starts with a capital or a digit ("non-" + "EU"), or the document spells
 * the hyphenated word elsewhere and never the closed one ("well-" + "known").
 */
import { isCjk, removeCjkSpacing } from './cjk-spacing.ts';
import { findPageFurniture } from './page-furniture.ts';
import type { PageLine } from '../db/schema.ts';
import type { PageLayout } from './pdf-layout.ts';

/** Whether any page has text; a document without any is refused as `no_text`. */
export function hasExtractableText(pages: readonly string[]): boolean {
  return pages.some((page) => /\S/u.test(page));
}

/** The text of each page, in the order given, without headers, footers and page numbers. */
export function pageTexts(pages: readonly PageLayout[]): string[] {
  return pageTextsWithLines(pages).map((page) => page.text);
}

/** A page's text, and where its lines stand on the page (see file_pages.lines). */
export interface PageTextWithLines {
  text: string;
  /**
   * Each kept line that has a box (layouts stored before boxes have none): its span in `text`
   * and its box, clamped to the page. A line joined to the one before gives up nothing of its
   * span but the hyphen a rejoined word loses; the space or blank line between lines belongs
   * to neither.
   */
  lines: PageLine[];
}

/** pageTexts, with each page's lines where they stand (the document viewer highlights them). */
export function pageTextsWithLines(pages: readonly PageLayout[]): PageTextWithLines[] {
  const furniture = findPageFurniture(pages);
  const vocabulary = Vocabulary.of(pages);
  return pages.map((page, pageIndex) => {
    let text = '';
    const lines: PageLine[] = [];
    page.blocks.forEach((block, blockIndex) => {
      if (furniture[pageIndex]?.has(blockIndex)) return;
      const joined = block.table
        ? tableLines(block.lines)
        : joinLinesWithSpans(block.lines, vocabulary);
      if (joined.text === '') return;
      if (text !== '') text += '\n\n';
      const offset = text.length;
      text += joined.text;
      joined.spans.forEach((span, lineIndex) => {
        const box = block.boxes?.[lineIndex];
        if (span === null || !box || span[1] <= span[0]) return;
        lines.push([span[0] + offset, span[1] + offset, ...clampBox(box, page)]);
      });
    });
    return { text, lines };
  });
}

type Span = [start: number, end: number] | null;

/** A table's rows, one a line. */
function tableLines(rows: readonly string[]): { text: string; spans: Span[] } {
  const spans: Span[] = [];
  let at = 0;
  for (const row of rows) {
    spans.push([at, at + row.length]);
    at += row.length + 1;
  }
  return { text: rows.join('\n'), spans };
}

/** A box kept within the page, rounded to hundredths of a point (a page of no size: as is). */
function clampBox(
  [left, top, right, bottom]: readonly number[],
  page: { width: number; height: number },
): [number, number, number, number] {
  const within = (value: number | undefined, most: number) =>
    round(most > 0 ? Math.min(most, Math.max(0, value ?? 0)) : (value ?? 0));
  return [
    within(left, page.width),
    within(top, page.height),
    within(right, page.width),
    within(bottom, page.height),
  ];
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Words the document spells, closed and hyphenated, counted (lower case). */
export class Vocabulary {
  readonly #counts = new Map<string, number>();

  static of(pages: readonly PageLayout[]): Vocabulary {
    const vocabulary = new Vocabulary();
    for (const page of pages) {
      for (const block of page.blocks) for (const line of block.lines) vocabulary.add(line);
    }
    return vocabulary;
  }

  /** Adds the words of one line; a word cut by the line end ("employ-") is not a word. */
  add(line: string): void {
    for (const match of line.matchAll(/\p{L}+(?:-\p{L}+)*/gu)) {
      if (line[match.index + match[0].length] === '-') continue;
      const word = match[0].toLowerCase();
      this.#counts.set(word, (this.#counts.get(word) ?? 0) + 1);
    }
  }

  count(word: string): number {
    return this.#counts.get(word.toLowerCase()) ?? 0;
  }
}

/** A paragraph's visual lines as running text. */
export function joinLines(lines: readonly string[], vocabulary = new Vocabulary()): string {
  return joinLinesWithSpans(lines, vocabulary).text;
}

/**
 * joinLines, with each line's span in the text (null for a line with nothing left). A joined
 * line always ends the text whole (joinPair never changes what comes after), so its span is
 * the text's end; the line before loses its hyphen when a word is rejoined.
 */
function joinLinesWithSpans(
  lines: readonly string[],
  vocabulary: Vocabulary,
): { text: string; spans: Span[] } {
  let text = '';
  const spans: Span[] = [];
  let previous: [number, number] | undefined;
  for (const raw of lines) {
    const line = removeCjkSpacing(raw.trim());
    if (line === '') {
      spans.push(null);
      continue;
    }
    text = text === '' ? line : joinPair(text, line, vocabulary);
    const start = text.length - line.length;
    if (previous !== undefined) previous[1] = Math.min(previous[1], start);
    previous = [start, text.length];
    spans.push(previous);
  }
  return { text, spans };
}

const LINE_END_HYPHEN = /(\p{L}+)([-\u00ad\u2010])$/u;

function joinPair(before: string, after: string, vocabulary: Vocabulary): string {
  const last = lastChar(before);
  const first = [...after][0];
  if (isCjk(last) || isCjk(first)) return before + after;
  const hyphen = LINE_END_HYPHEN.exec(before);
  // "Covid-" + "19": a hyphen before a number is part of the name.
  if (hyphen !== null && first !== undefined && /\p{N}/u.test(first)) return before + after;
  if (hyphen !== null && first !== undefined && /\p{L}/u.test(first)) {
    const [, stem = '', mark] = hyphen;
    const head = before.slice(0, before.length - 1);
    if (mark === '\u00ad') return head + after;
    const next = /^\p{L}+/u.exec(after)?.[0] ?? '';
    return keepsHyphen(stem, next, vocabulary) ? before + after : head + after;
  }
  return `${before} ${after}`;
}

/** Whether "stem-next", split at the hyphen by the line end, is a real hyphenated word. */
function keepsHyphen(stem: string, next: string, vocabulary: Vocabulary): boolean {
  if (/^\p{Lu}/u.test(next)) return true;
  const hyphenated = vocabulary.count(`${stem}-${next}`);
  const closed = vocabulary.count(`${stem}${next}`);
  return hyphenated > closed;
}

function lastChar(text: string): string | undefined {
  const code = text.codePointAt(text.length - 1);
  if (code === undefined) return undefined;
  // A low surrogate ends a character that began one code unit earlier.
  if (code >= 0xdc00 && code <= 0xdfff && text.length >= 2) {
    return String.fromCodePoint(text.codePointAt(text.length - 2) ?? code);
  }
  return String.fromCharCode(code);
}
