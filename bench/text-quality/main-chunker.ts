// The chunker as it was on main before paragraph-aware extraction (commit ba19cb1,
// workers/knowledge/src/ingest/chunker.ts), kept verbatim so that bench/text-quality.ts measures
// "before" with the code that ran, not a reimplementation.
/**
 * Splits page texts into overlapping chunks for embedding: a recursive character splitter in
 * the manner of LangChain's RecursiveCharacterTextSplitter, with the original service's
 * settings (500 characters, 100 overlap) as defaults.
 *
 * Lengths are counted in Unicode code points, so a Chinese character or an emoji counts as one
 * character, as a user would count it.
 */

export interface Chunk {
  content: string;
  /** The page the chunk comes from, 1-based. A chunk never spans pages. */
  page: number;
  /** Position of the chunk in the whole document, 0-based and without gaps. */
  index: number;
}

export interface ChunkOptions {
  /** Maximum length of a chunk, in code points. */
  chunkSize?: number;
  /** Maximum length of the text a chunk repeats from the end of the one before it. */
  overlap?: number;
}

export const DEFAULT_CHUNK_SIZE = 500;
export const DEFAULT_CHUNK_OVERLAP = 100;

/**
 * Where text may be split, coarsest first. Each separator stays at the end of the piece before
 * it, so a sentence keeps its full stop. Closing quotes and brackets belong to the sentence they
 * close. Text that none of these split is cut between code points.
 */
const SEPARATORS: readonly RegExp[] = [
  /\n\n/g,
  /\n/g,
  /[.!?]['"’”)\]]* |[。！？；][”’」』）]*/gu,
  / /g,
];

interface Piece {
  text: string;
  /** In code points. */
  length: number;
}

/** Chunks of every page, in page order, each at most `chunkSize` code points long. */
export function chunkPages(pages: readonly string[], options: ChunkOptions = {}): Chunk[] {
  const { chunkSize, overlap } = validateOptions(options);
  const chunks: Chunk[] = [];
  pages.forEach((pageText, pageIndex) => {
    const text = normaliseWhitespace(pageText);
    if (text === '') return;
    for (const content of mergePieces(splitIntoPieces(text, chunkSize), chunkSize, overlap)) {
      chunks.push({ content, page: pageIndex + 1, index: chunks.length });
    }
  });
  return chunks;
}

/**
 * Runs of horizontal whitespace become one space, spaces around line breaks go, and blank lines
 * shrink to one, which keeps paragraph breaks (the coarsest separator) and nothing more.
 */
export function normaliseWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function validateOptions(options: ChunkOptions): Required<ChunkOptions> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const overlap = options.overlap ?? DEFAULT_CHUNK_OVERLAP;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= chunkSize) {
    throw new RangeError(
      `overlap must be an integer from 0 to chunkSize - 1 (${chunkSize - 1}), got ${overlap}`,
    );
  }
  return { chunkSize, overlap };
}

/**
 * Lossless split into pieces of at most `maxLength` code points, using the coarsest separator
 * that makes each piece short enough: joined again, the pieces give back `text`.
 */
function splitIntoPieces(text: string, maxLength: number, level = 0): Piece[] {
  const length = codePointLength(text);
  if (length <= maxLength) return [{ text, length }];
  const separator = SEPARATORS[level];
  if (separator === undefined) return Array.from(text, (char) => ({ text: char, length: 1 }));
  return splitAfter(text, separator).flatMap((part) => splitIntoPieces(part, maxLength, level + 1));
}

function splitAfter(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const match of text.matchAll(separator)) {
    const end = match.index + match[0].length;
    parts.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) parts.push(text.slice(start));
  return parts;
}

/**
 * Packs pieces greedily into chunks. Each chunk after the first starts with the end of the one
 * before it (at most `overlap` code points, cut at the coarsest separator that fits), shortened
 * as far as needed for the next piece to fit.
 */
function mergePieces(pieces: readonly Piece[], chunkSize: number, overlap: number): string[] {
  const chunks: string[] = [];
  let window: Piece[] = [];
  let windowLength = 0;
  let carried = 0;
  for (const piece of pieces) {
    if (windowLength + piece.length > chunkSize && hasNewText(window, carried)) {
      const text = joinPieces(window);
      chunks.push(text.trim());
      window = overlapPieces(text, overlap);
      windowLength = totalLength(window);
      carried = window.length;
    }
    while (windowLength + piece.length > chunkSize) {
      windowLength -= window.shift()?.length ?? 0;
      carried = Math.max(0, carried - 1);
    }
    window.push(piece);
    windowLength += piece.length;
  }
  if (hasNewText(window, carried)) chunks.push(joinPieces(window).trim());
  return chunks;
}

/** The longest run of trailing pieces of `text` that is at most `overlap` code points long. */
function overlapPieces(text: string, overlap: number): Piece[] {
  if (overlap === 0) return [];
  const pieces = splitIntoPieces(text, overlap);
  let length = 0;
  let start = pieces.length;
  while (start > 0) {
    const next = pieces[start - 1];
    if (next === undefined || length + next.length > overlap) break;
    length += next.length;
    start -= 1;
  }
  return pieces.slice(start);
}

/** Whether the window holds text beyond what it carried over, so it is worth a chunk. */
function hasNewText(window: readonly Piece[], carried: number): boolean {
  return window.slice(carried).some((piece) => /\S/u.test(piece.text));
}

function joinPieces(pieces: readonly Piece[]): string {
  return pieces.map((piece) => piece.text).join('');
}

function totalLength(pieces: readonly Piece[]): number {
  return pieces.reduce((sum, piece) => sum + piece.length, 0);
}

function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    length += 1;
  }
  return length;
}
