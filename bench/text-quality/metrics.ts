/**
 * What bench/text-quality.ts counts in extracted page texts and their chunks. Each count is a
 * defect a reader (or a retriever) trips over; the best value of each is 0, except paragraphs.
 */
import { isPageNumber } from '../../workers/knowledge/src/ingest/page-furniture.ts';

export interface TextQuality {
  pages: number;
  /** A single line break between two Han characters, or inside a Latin word (with or without a hyphen). */
  breaksInsideWords: number;
  /** Spaces between two Han characters. */
  spacesBetweenCjk: number;
  /** Lines that are page numbers, or that repeat (digits aside) on at least 40 % of pages. */
  furnitureLines: number;
  /** Blocks separated by blank lines. */
  paragraphs: number;
  chunks: number;
  /** Chunks (not the last of a page) that end between two Han characters or inside a Latin word. */
  chunksEndingMidWord: number;
}

const HAN = /\p{Script=Han}/u;
const LETTER = /[\p{L}\p{N}]/u;

export function measureText(pages: readonly string[], chunks: readonly ChunkLike[]): TextQuality {
  const text = pages.join('\n\n');
  const breaksInsideWords =
    count(text, /(?<=\p{Script=Han})\n(?=\p{Script=Han})/gu) +
    count(text, /(?<=\p{Ll})-?\n(?=\p{Ll})/gu);
  return {
    pages: pages.length,
    breaksInsideWords,
    spacesBetweenCjk: count(text, /(?<=\p{Script=Han}) +(?=\p{Script=Han})/gu),
    furnitureLines: furnitureLines(pages),
    paragraphs: pages.reduce(
      (sum, page) => sum + page.split(/\n\s*\n/u).filter((block) => block.trim() !== '').length,
      0,
    ),
    chunks: chunks.length,
    chunksEndingMidWord: chunksEndingMidWord(pages, chunks),
  };
}

export interface ChunkLike {
  content: string;
  page: number;
}

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

function furnitureLines(pages: readonly string[]): number {
  const key = (line: string) => line.replace(/\s+/gu, '').replace(/\d+/gu, '#');
  const pagesWith = new Map<string, number>();
  const linesOf = pages.map((page) =>
    page
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
  for (const lines of linesOf) {
    for (const line of new Set(lines.map(key))) pagesWith.set(line, (pagesWith.get(line) ?? 0) + 1);
  }
  const repeated = Math.max(2, Math.ceil(0.4 * pages.length));
  return linesOf
    .flat()
    .filter((line) => isPageNumber(line) || (pagesWith.get(key(line)) ?? 0) >= repeated).length;
}

/** Finds each chunk in its page's text (whitespace-insensitively) and looks at what follows. */
function chunksEndingMidWord(pages: readonly string[], chunks: readonly ChunkLike[]): number {
  let midWord = 0;
  const byPage = new Map<number, ChunkLike[]>();
  for (const chunk of chunks) byPage.set(chunk.page, [...(byPage.get(chunk.page) ?? []), chunk]);
  for (const [page, pageChunks] of byPage) {
    const text = (pages[page - 1] ?? '').replace(/[^\S\n]+/gu, ' ');
    let from = 0;
    pageChunks.slice(0, -1).forEach((chunk) => {
      const content = chunk.content.replace(/[^\S\n]+/gu, ' ');
      const at = text.indexOf(content, from);
      if (at < 0) return;
      from = at + 1;
      const last = [...content].at(-1) ?? '';
      const rest = text.slice(at + content.length);
      // What follows, across spaces and single line breaks but not across a blank line.
      const gap = /^[^\S]*/u.exec(rest)?.[0] ?? '';
      const next = [...rest.slice(gap.length)][0] ?? '';
      if (gap.includes('\n\n') || next === '') return;
      const hanSplit = HAN.test(last) && HAN.test(next);
      const latinSplit =
        (LETTER.test(last) && LETTER.test(next) && gap === '') ||
        (last === '-' && /\p{Ll}/u.test(next) && gap === '\n');
      if (hanSplit || latinSplit) midWord += 1;
    });
  }
  return midWord;
}
