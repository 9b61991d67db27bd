/**
 * Splits page texts into overlapping chunks for embedding, with the original service's settings
 * (500 characters, 100 overlap) as defaults. A chunk ends at a paragraph or sentence end when
 * one is within reach, never inside a word when a word or CJK boundary is available, and the
 * overlap that starts the next chunk begins at the best boundary too (see BOUNDARIES).
 *
 * Lengths are counted in Unicode code points, so a Chinese character or an emoji counts as one
 * character, as a user would count it.
 *
 * A Markdown table (every reader writes tables so, markdown-table.ts) is cut between its rows
 * only, whatever the fill, unless a single row is longer than a chunk; and a chunk that begins
 * inside a table, past its header, starts with the table's header and delimiter rows, so a
 * retrieved row still says what its columns are. The repeated header counts toward the
 * chunk's length (a header longer than half a chunk is not repeated). Text without tables is
 * chunked exactly as before tables were known.
 *
 * Chunks follow the document's own structure (structure/document-structure.ts): a chunk never
 * spans two headings, so never two articles (第X条) or numbered items; an article longer than a
 * chunk is split inside itself as above; a title line (第三章 财政支持) goes with what follows it
 * rather than into a chunk of its own. Each chunk carries the heading path of where it starts.
 * Text without headings is chunked exactly as before structure was known.
 */
import { tableAround, tablePlaces, type TablePlace } from './chunk-tables.ts';
import {
  initialStructure,
  readPageStructure,
  type PageStructure,
  type StructureState,
} from './structure/document-structure.ts';

export interface Chunk {
  content: string;
  /** The page the chunk comes from, 1-based. A chunk never spans pages. */
  page: number;
  /** Position of the chunk in the whole document, 0-based and without gaps. */
  index: number;
}

/** A chunk with its place in its page's text (the text as given, before normalising). */
export interface LocatedChunk extends Chunk {
  /**
   * UTF-16 offsets into the page's text, end exclusive: where the chunk's own text stands (a
   * repeated table header is not part of it). The slice there, normalised, is the chunk's text.
   */
  charStart: number;
  charEnd: number;
  /**
   * The heading path where the chunk starts (`第三章 财政支持 › 第十二条`, or a section's label
   * with the structure inside it); absent where the document has none.
   */
  headingPath?: string;
}

export interface ChunkOptions {
  /** Maximum length of a chunk, in code points. */
  chunkSize?: number;
  /** Maximum length of the text a chunk repeats from the end of the one before it. */
  overlap?: number;
}

/** What the chunker knows of the pages' structure besides their text. */
export interface StructureOptions {
  /** Each page's own heading path (a section's label), or null. */
  labels?: readonly (string | null)[];
  /** Where the structure stands before the first page (see chunkDocument's `states`). */
  structure?: StructureState;
}

export const DEFAULT_CHUNK_SIZE = 500;
export const DEFAULT_CHUNK_OVERLAP = 100;

/**
 * Where a chunk may end, best first. A chunk ends at the best kind of boundary found in the
 * second half of its window (the last one of that kind), so it ends at a paragraph or sentence
 * end whenever one is within reach, at a clause or word boundary otherwise, between two CJK
 * characters only when there is nothing better, and between any two characters as a last
 * resort. Each boundary lies after its separator, so a sentence keeps its full stop; closing
 * quotes and brackets belong to the sentence they close.
 */
const BOUNDARIES: readonly RegExp[] = [
  /\n\n/gu,
  /\n/gu,
  /[.!?]['"’”)\]]*(?: |$)|[。！？；…][”’」』）》]*/gu,
  /[,;:](?: |$)|[，、：]/gu,
  / /gu,
];
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff01-\uff60]/u;

/** The kinds of boundary in BOUNDARIES, then "between CJK characters", then "anywhere". */
const KINDS = BOUNDARIES.length + 2;

/** A chunk fills at least this share of its window when it ends at a chosen boundary. */
const MIN_FILL = 0.5;

/** Chunks of every page, in page order, each at most `chunkSize` code points long. */
export function chunkPages(
  pages: readonly string[],
  options: ChunkOptions & StructureOptions = {},
): Chunk[] {
  return locatedChunkPages(pages, options).map(({ content, page, index }) => ({
    content,
    page,
    index,
  }));
}

/** chunkPages, with each chunk's place in its page's text. */
export function locatedChunkPages(
  pages: readonly string[],
  options: ChunkOptions & StructureOptions = {},
): LocatedChunk[] {
  return chunkDocument(pages, options).chunks;
}

/**
 * locatedChunkPages, with the structure's state where each page begins: given `states[i]` as
 * `structure` (and the labels from page i on), pages i… chunk exactly as they do in the whole
 * document, which lets a step chunk a range of pages without reading the pages before it.
 */
export function chunkDocument(
  pages: readonly string[],
  options: ChunkOptions & StructureOptions = {},
): { chunks: LocatedChunk[]; states: StructureState[] } {
  const { chunkSize, overlap } = validateOptions(options);
  const chunks: LocatedChunk[] = [];
  const states: StructureState[] = [];
  let state = options.structure ?? initialStructure();
  pages.forEach((pageText, pageIndex) => {
    states.push(state);
    const text = normaliseWhitespace(pageText);
    const structure = readPageStructure(text, state, options.labels?.[pageIndex] ?? null);
    state = structure.state;
    if (text === '') return;
    const toOriginal = originalOffsets(pageText, text);
    for (const segment of segmentsOf(text, structure)) {
      const segmentText = text.slice(segment.start, segment.end);
      for (const piece of splitText(segmentText, chunkSize, overlap)) {
        chunks.push({
          content: piece.content,
          page: pageIndex + 1,
          index: chunks.length,
          charStart: toOriginal.start(segment.start + piece.start),
          charEnd: toOriginal.end(segment.start + piece.end),
          ...(segment.path === null ? {} : { headingPath: segment.path }),
        });
      }
    }
  });
  return { chunks, states };
}

/** Whether `text` holds nothing but Markdown heading lines, or nothing at all. */
const onlyTitles = (text: string) =>
  text.split('\n').every((line) => line.trim() === '' || /^#{1,6} /u.test(line.trim()));

/** A stretch of a page's text that chunks apart from the rest, and its heading path. */
interface Segment {
  start: number;
  end: number;
  path: string | null;
}

/**
 * A page's text cut at its headings: each heading starts a segment, except one that follows
 * title lines only (第三章 财政支持 above 第十二条), which joins them, so no chunk is a bare title
 * unless the title ends the page. The text before the first heading continues what the page
 * before ended with; a section's own heading line there (`## 第一章 总则`, which the section's
 * label already names) joins the first heading too.
 */
function segmentsOf(text: string, structure: PageStructure): Segment[] {
  const segments: Segment[] = [];
  let current: Segment = { start: 0, end: text.length, path: structure.startPath };
  // Whether the current segment holds nothing yet but title lines (or nothing at all).
  let titlesOnly = true;
  let lastEnd = 0;
  for (const heading of structure.headings) {
    if (titlesOnly && onlyTitles(text.slice(lastEnd, heading.start))) {
      current.path = heading.path;
    } else {
      segments.push({ ...current, end: heading.start });
      current = { start: heading.start, end: text.length, path: heading.path };
    }
    titlesOnly = heading.titleOnly;
    lastEnd = heading.end;
  }
  segments.push(current);
  return segments;
}

/**
 * Offsets in `normalised` (normaliseWhitespace of `original`) back to `original`.
 * Normalising changes whitespace only, so the texts' other UTF-16 units are the same, in the
 * same order: the k-th of them in one is the k-th in the other. A chunk's text starts and ends
 * with such a unit (it is trimmed), which is all a chunk's place needs.
 */
function originalOffsets(original: string, normalised: string) {
  const kept: number[] = [];
  for (let i = 0; i < original.length; i++) if (!isSpace(original[i]!)) kept.push(i);
  // How many non-space units of `normalised` come before each offset.
  const before = new Uint32Array(normalised.length + 1);
  for (let i = 0; i < normalised.length; i++) {
    before[i + 1] = before[i]! + (isSpace(normalised[i]!) ? 0 : 1);
  }
  return {
    /** The offset of the unit at `start` (not a space). */
    start: (start: number) => kept[before[start]!] ?? original.length,
    /** The offset just after the unit before `end` (not a space). */
    end: (end: number) => (end > 0 ? (kept[before[end]! - 1] ?? original.length - 1) + 1 : 0),
  };
}

const isSpace = (unit: string) => /\s/u.test(unit);

/**
 * Runs of horizontal whitespace become one space, spaces around line breaks go, and blank lines
 * shrink to one, which keeps paragraph breaks (the best boundary) and nothing more.
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

/** A chunk of a page's normalised text: `start`, `end` its UTF-16 offsets there, head aside. */
interface Piece {
  content: string;
  start: number;
  end: number;
}

/**
 * One page's chunks. Positions are code-point indexes. Each chunk after the first starts at
 * most `overlap` code points before the end of the one before it, at the best boundary there
 * (the earliest of that kind, for the longest overlap), and always ends past it.
 */
function splitText(text: string, chunkSize: number, overlap: number): Piece[] {
  const chars = Array.from(text);
  // UTF-16 offset of each code-point position.
  const units = new Uint32Array(chars.length + 1);
  chars.forEach((char, index) => (units[index + 1] = units[index]! + char.length));
  const tables = tablePlaces(text);
  const everywhere = findBoundaries(text, chars);
  const boundaries = tables.length > 0 ? betweenRows(everywhere, tables) : everywhere;
  // The header a chunk starting at `position` repeats, if any, and the room left for the text.
  const headAt = (position: number): [head: string, room: number] => {
    const table = tableAround(tables, position);
    if (table === undefined || position >= table.end || table.headLength > chunkSize / 2) {
      return ['', chunkSize];
    }
    return [table.head, chunkSize - table.headLength - 1];
  };
  const chunks: Piece[] = [];
  let start = 0;
  let previousEnd = 0;
  while (previousEnd < chars.length) {
    const [head, room] = headAt(start);
    const end =
      chars.length - start <= room
        ? chars.length
        : tables.length > 0
          ? chooseTableEnd(boundaries, everywhere, tables, start, room, previousEnd)
          : chooseEnd(boundaries, start, room, previousEnd);
    const raw = chars.slice(start, end).join('');
    const content = raw.trim();
    if (content !== '') {
      const from = units[start]! + (raw.length - raw.trimStart().length);
      chunks.push({
        content: head ? `${head}\n${content}` : content,
        start: from,
        end: from + content.length,
      });
    }
    previousEnd = end;
    start = end >= chars.length ? end : chooseOverlapStart(boundaries, start, end, overlap);
    // A repeated header can leave too little room to get past the end: no overlap then.
    if (start + headAt(start)[1] <= end) start = end;
  }
  return chunks;
}

/** The boundaries less those inside a table but between its rows (TablePlace.cuts). */
function betweenRows(boundaries: readonly number[][], tables: readonly TablePlace[]): number[][] {
  return boundaries.map((positions) =>
    positions.filter((position) => {
      const table = tableAround(tables, position);
      return table === undefined || lastInRange(table.cuts, position, position) !== undefined;
    }),
  );
}

/**
 * Where a chunk ends when its window ends inside a table: at the last place between rows in
 * reach (however little of the window that fills), else before the table, else, for a row
 * longer than the window, where it would end without the table.
 */
function chooseTableEnd(
  boundaries: readonly number[][],
  everywhere: readonly number[][],
  tables: readonly TablePlace[],
  start: number,
  size: number,
  previousEnd: number,
): number {
  const last = start + size;
  const table = tableAround(tables, last);
  if (table === undefined) return chooseEnd(boundaries, start, size, previousEnd);
  const from = Math.max(previousEnd + 1, start + 1);
  const cut = lastInRange(table.cuts, from, last);
  if (cut !== undefined) return cut;
  if (table.start >= from) return table.start;
  return chooseEnd(everywhere, start, size, previousEnd);
}

/** `boundaries[kind]`: ascending positions where a chunk may end (or start), by kind. */
function findBoundaries(text: string, chars: readonly string[]): number[][] {
  const boundaries: number[][] = Array.from({ length: KINDS }, () => []);
  // Code-point index of each UTF-16 index that starts a code point.
  const toCodePoint = new Map<number, number>();
  let unit = 0;
  chars.forEach((char, index) => {
    toCodePoint.set(unit, index);
    unit += char.length;
  });
  toCodePoint.set(unit, chars.length);
  BOUNDARIES.forEach((pattern, kind) => {
    for (const match of text.matchAll(pattern)) {
      const position = toCodePoint.get(match.index + match[0].length);
      if (position !== undefined && position > 0) boundaries[kind]?.push(position);
    }
  });
  const cjk = boundaries[BOUNDARIES.length] ?? [];
  const anywhere = boundaries[BOUNDARIES.length + 1] ?? [];
  for (let position = 1; position < chars.length; position++) {
    const before = chars[position - 1] ?? '';
    const after = chars[position] ?? '';
    // Between a CJK character and a Latin one is a word boundary; between two CJK characters
    // only a character boundary (no word boundaries are marked in Chinese).
    const beforeCjk = CJK.test(before);
    const afterCjk = CJK.test(after);
    if (beforeCjk !== afterCjk && before !== ' ' && after !== ' ') {
      boundaries[BOUNDARIES.length - 1]?.push(position);
    } else if (beforeCjk && afterCjk) cjk.push(position);
    anywhere.push(position);
  }
  for (const list of boundaries) list.sort((a, b) => a - b);
  return boundaries;
}

function chooseEnd(
  boundaries: readonly number[][],
  start: number,
  chunkSize: number,
  previousEnd: number,
): number {
  const last = start + chunkSize;
  const first = Math.max(previousEnd + 1, start + Math.ceil(chunkSize * MIN_FILL));
  for (const positions of boundaries.slice(0, KINDS - 1)) {
    const found = lastInRange(positions, first, last);
    if (found !== undefined) return found;
  }
  return last;
}

function chooseOverlapStart(
  boundaries: readonly number[][],
  start: number,
  end: number,
  overlap: number,
): number {
  if (overlap === 0) return end;
  for (const positions of boundaries) {
    const found = firstInRange(positions, Math.max(start + 1, end - overlap), end - 1);
    if (found !== undefined) return found;
  }
  return end;
}

/** The last position in [from, to], or undefined. */
function lastInRange(sorted: readonly number[], from: number, to: number): number | undefined {
  const index = upperBound(sorted, to) - 1;
  const value = sorted[index];
  return value !== undefined && value >= from ? value : undefined;
}

/** The first position in [from, to], or undefined. */
function firstInRange(sorted: readonly number[], from: number, to: number): number | undefined {
  const value = sorted[upperBound(sorted, from - 1)];
  return value !== undefined && value <= to ? value : undefined;
}

/** Index of the first value greater than `value`. */
function upperBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? 0) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
