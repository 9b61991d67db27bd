/**
 * A document's own structure, read from its page texts: which lines are headings, their levels,
 * and the heading path of every place in the text (`第三章 财政支持 › 第十二条`).
 *
 * Two Chinese hierarchies are known, 第X编 > 第X章 > 第X节 > 第X条 (laws, regulations, 办法) and
 * 一、 > （一） > 1. > （1） (notices, plans), an attachment (附件) above both, and English numbered
 * sections (1. Purpose, 1.1, 1.1.1; Part/Chapter N; Section/Article/Clause N).
 *
 * The reader is conservative, because a wrong heading cuts an article in two and names a passage
 * wrongly, while a missed one costs only the name:
 * - a heading starts a paragraph (the page's first line after a finished paragraph, a line after
 *   a blank line, after a heading, or after a line ending a sentence or clause), so a reference
 *   that a wrapped line happens to begin with ("依照本办法\n第十二条规定") is text;
 * - its number follows the one before it of its kind (the first one, or a small step on), so a
 *   quoted "第十二条" after 第十二条 is text;
 * - numbered items (一、 …) are headings only where no article is open (inside an article they
 *   are its enumeration), and each level below the first only under its parent level;
 * - a title line (第三章 财政支持, 1. Purpose) is short and does not read as a sentence.
 *
 * The structure continues across pages: the state after one page is where the next one starts,
 * and it is plain data, so that a later step can resume reading at any page. A page with a
 * label (a section of a document with headings, whose label is its heading path) starts afresh
 * under that label, unless the page before had the same one (a long section's next part).
 */

/** A heading found in a page's text. */
export interface HeadingLine {
  /** UTF-16 offset in the page's text where the heading's line starts. */
  start: number;
  /** Where the heading's own words end (for an article, after 第十二条; otherwise the line's end). */
  end: number;
  /** The heading's rank: a smaller rank is a higher level. */
  rank: number;
  /** The heading as shown in paths: 第三章 财政支持, 第十二条, 一、总体要求, 1.2 Eligibility. */
  label: string;
  /** The heading path from here on: the labels of every heading open, outermost first. */
  path: string;
  /** Whether the line holds only the heading (a title), not text after it (an article). */
  titleOnly: boolean;
}

/** An open heading, as plain data. */
export interface OpenHeading {
  kind: string;
  rank: number;
  /** Its number; for English dotted numbers (1.2.3) every part. */
  numbers: number[];
  label: string;
}

/** Where reading stands between two pages: plain data, kept in a step's result. */
export interface StructureState {
  open: OpenHeading[];
  /** The last number read of each kind (`kind` or `kind:parent numbers`). */
  last: Record<string, number>;
  /** Whether the text so far ends a paragraph (a heading may start the next page). */
  ended: boolean;
  /** The label of the page read last, if it had one. */
  label?: string | null;
}

export const initialStructure = (): StructureState => ({ open: [], last: {}, ended: true });

/** Whether `state` is where a document without a label starts (nothing to carry to a page). */
export const isInitialStructure = (state: StructureState) =>
  state.open.length === 0 && Object.keys(state.last).length === 0 && state.ended && !state.label;

/** The path separator: a character no heading of these kinds contains. */
export const PATH_SEPARATOR = ' › ';

/** A page's headings, and the reading state after it. */
export interface PageStructure {
  /** The heading path where the page begins, or null. */
  startPath: string | null;
  headings: HeadingLine[];
  state: StructureState;
}

/**
 * Reads one page's headings from `state` (the state after the page before, or initialStructure
 * for the first page). `label`: the page's own heading path, if it has one.
 */
export function readPageStructure(
  text: string,
  state: StructureState,
  label: string | null = null,
): PageStructure {
  // A new label starts afresh; a section too long for one page goes on under the same label.
  let current: StructureState =
    label === null || label === state.label ? copy(state) : initialStructure();
  current.label = label;
  const pathOf = () => joinPath(label, current.open);
  const startPath = pathOf();
  const headings: HeadingLine[] = [];
  let previousHeading = false;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const trimmed = line.trim();
    if (trimmed === '') {
      if (line !== '' || newline !== -1) current.ended = true;
    } else {
      const atParagraphStart: boolean = current.ended || previousHeading;
      const found: Found | undefined = atParagraphStart ? headingOf(trimmed, current) : undefined;
      if (found) {
        const indent = line.length - line.trimStart().length;
        const open = found.heading;
        current = push(current, open, found.resets);
        headings.push({
          start: lineStart,
          end: lineStart + indent + found.length,
          rank: open.rank,
          label: open.label,
          path: pathOf()!,
          titleOnly: found.length >= trimmed.length,
        });
        // A heading whose line holds text goes on as that text's paragraph.
        previousHeading = found.length >= trimmed.length;
        current.ended = previousHeading || endsClause(trimmed);
      } else {
        previousHeading = false;
        current.ended = endsClause(trimmed);
      }
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  // The page's end ends a paragraph only when its last line does.
  return { startPath, headings, state: current };
}

/** Every page's structure, in order, each page continuing from the one before. */
export function readStructure(
  pages: readonly string[],
  options: { labels?: readonly (string | null)[]; state?: StructureState } = {},
): PageStructure[] {
  let state = options.state ?? initialStructure();
  return pages.map((text, i) => {
    const page = readPageStructure(text, state, options.labels?.[i] ?? null);
    state = page.state;
    return page;
  });
}

/** The heading path at `offset` in a page read by readPageStructure. */
export function pathAt(page: PageStructure, offset: number): string | null {
  let path = page.startPath;
  for (const heading of page.headings) {
    if (heading.start > offset) break;
    path = heading.path;
  }
  return path;
}

function joinPath(label: string | null, open: readonly OpenHeading[]): string | null {
  // A section's own heading (a DOCX or Markdown heading that is also 第三章 附则) opens its text
  // too: read again there, it is its label's last part already, not a level below it.
  const own = label?.split(PATH_SEPARATOR).pop();
  const headings = open.filter((heading, i) => !(i === 0 && sameHeading(heading.label, own)));
  const parts = [...(label ? [label] : []), ...headings.map((heading) => heading.label)];
  return parts.length > 0 ? parts.join(PATH_SEPARATOR) : null;
}

const sameHeading = (a: string, b: string | undefined) =>
  b !== undefined && a.replace(/\s+/gu, '') === b.replace(/\s+/gu, '');

const copy = (state: StructureState): StructureState => ({
  open: state.open.map((heading) => ({ ...heading, numbers: [...heading.numbers] })),
  last: { ...state.last },
  ended: state.ended,
  label: state.label ?? null,
});

/** Sentence and clause ends after which a new paragraph, and so a heading, may start. */
const endsClause = (line: string) => /[。！？；：.!?;:]["'’”」』）)]*$/u.test(line);

interface Found {
  heading: OpenHeading;
  /** The heading's own words' length in the trimmed line. */
  length: number;
  /** Kinds whose numbering starts again under this heading. */
  resets: readonly string[];
}

function push(state: StructureState, heading: OpenHeading, resets: readonly string[]) {
  const open = state.open.filter((other) => other.rank < heading.rank);
  open.push(heading);
  const last = { ...state.last };
  for (const key of Object.keys(last)) {
    if (resets.some((kind) => key === kind || key.startsWith(`${kind}:`))) delete last[key];
  }
  last[keyOf(heading)] = heading.numbers.at(-1)!;
  return { ...state, open, last };
}

const keyOf = (heading: OpenHeading) =>
  heading.kind === 'en' ? `en:${heading.numbers.slice(0, -1).join('.')}` : heading.kind;

/** A title line: short, and not a sentence. */
const isTitle = (text: string, max: number) =>
  [...text].length <= max && !/[。；;，,]|[.!?]$/u.test(text);

// Chinese ranks: 附件 0, 编 1, 章 2, 节 3, 条 4, then numbered items 5–8. English 10 on.
const CHINESE = { 编: 1, 章: 2, 节: 3, 条: 4 } as const;
const CHINESE_KINDS = ['编', '章', '节', '条'] as const;
const ITEMS = ['item1', 'item2', 'item3', 'item4'] as const;

const NUMERAL = '[零〇一二两三四五六七八九十百千]+|[0-9０-９]+';
const CHINESE_HEADING = new RegExp(`^第(${NUMERAL})([编章节条])[\\s\\u3000]*`, 'u');
// PDF text loses the space after 附件 (附件创业担保贷款申请材料清单): the line being a title is what counts.
const ANNEX = /^附\s*件\s*([0-9０-９一二三四五六七八九十]*)[\s\u3000：:]*/u;
const ITEM1 = /^([零〇一二两三四五六七八九十百]+)、[\s\u3000]*/u;
const ITEM2 = /^[（(]([零〇一二两三四五六七八九十百]+)[）)][\s\u3000]*/u;
const ITEM3 = /^([0-9０-９]{1,2})(?:[.．](?![0-9０-９])|、)[\s\u3000]*/u;
const ITEM4 = /^[（(]([0-9０-９]{1,2})[）)][\s\u3000]*/u;
const ENGLISH_KEYWORD = /^(Part|Chapter|Section|Article|Clause)\s+(\d{1,3})\b[.:]?(?:\s+|$)/u;
const ENGLISH_DOTTED = /^(\d{1,2}(?:\.\d{1,2}){0,3})(\.?)(?:\s+|$)/u;

function headingOf(line: string, state: StructureState): Found | undefined {
  return chinese(line, state) ?? annex(line) ?? item(line, state) ?? english(line, state);
}

function accepts(state: StructureState, key: string, number: number, strict: boolean): boolean {
  const last = state.last[key];
  if (number === 1) return true;
  if (last === undefined) return !strict;
  return number > last && number <= last + 5;
}

function chinese(line: string, state: StructureState): Found | undefined {
  const match = CHINESE_HEADING.exec(line);
  if (!match) return undefined;
  const kind = match[2] as (typeof CHINESE_KINDS)[number];
  const number = numberOf(match[1]!);
  if (number === undefined || !accepts(state, kind, number, false)) return undefined;
  const marker = `第${match[1]}${kind}`;
  const rest = line.slice(match[0].length).trim();
  const heading = (label: string, length: number): Found => ({
    heading: { kind, rank: CHINESE[kind], numbers: [number], label },
    length,
    // Sections (节) are numbered within their chapter; chapters and articles run on.
    resets: kind === '章' ? ['节', ...ITEMS] : ITEMS,
  });
  // An article's first line is its text: the heading is 第十二条 alone.
  if (kind === '条') return heading(marker, marker.length);
  if (rest !== '' && !isTitle(rest, 30)) return undefined;
  return heading(rest ? `${marker} ${rest}` : marker, line.length);
}

function annex(line: string): Found | undefined {
  const match = ANNEX.exec(line);
  if (!match) return undefined;
  const rest = line.slice(match[0].length).trim();
  if (rest !== '' && !isTitle(rest, 40)) return undefined;
  const marker = `附件${match[1] ?? ''}`;
  return {
    heading: {
      kind: 'annex',
      rank: 0,
      numbers: [numberOf(match[1] || '1') ?? 1],
      label: rest ? `${marker} ${rest}` : marker,
    },
    length: line.length,
    // An attachment's articles and items are its own.
    resets: [...CHINESE_KINDS, ...ITEMS],
  };
}

function item(line: string, state: StructureState): Found | undefined {
  // Inside an article, numbered items are the article's enumeration, not headings.
  if (state.open.some((heading) => heading.kind === '条')) return undefined;
  for (const [level, pattern] of [ITEM1, ITEM2, ITEM3, ITEM4].entries()) {
    const match = pattern.exec(line);
    if (!match) continue;
    const rest = line.slice(match[0].length).trim();
    // "1." before English words is an English section (english below).
    if (level === 2 && rest !== '' && !CJK_START.test(rest)) return undefined;
    const number = numberOf(match[1]!);
    const kind = ITEMS[level]!;
    if (number === undefined || !accepts(state, kind, number, true)) return undefined;
    const marker = match[0].trim();
    const title = rest.split(/[。；;：:]/u)[0]!;
    const [label, length] =
      rest === '' || isTitle(rest, 30)
        ? [line, line.length]
        : title !== rest && isTitle(title, 30)
          ? [`${marker}${title}`, match[0].length + title.length]
          : [marker, marker.length];
    return {
      heading: { kind, rank: 5 + level, numbers: [number], label },
      length,
      resets: ITEMS.slice(level + 1),
    };
  }
  return undefined;
}

function english(line: string, state: StructureState): Found | undefined {
  const keyword = ENGLISH_KEYWORD.exec(line);
  if (keyword) {
    const number = Number(keyword[2]);
    const part = keyword[1] === 'Part' || keyword[1] === 'Chapter';
    const kind = part ? 'part' : 'en';
    const rest = line.slice(keyword[0].length).trim();
    // "Section 3 of the Act applies" is a sentence; "Section 3 Appeals", "Article 4. Staff…"
    // and "Section 3" alone are headings.
    if (rest !== '' && !/[.:]\s*$/u.test(keyword[0]) && !/^\p{Lu}/u.test(rest)) return undefined;
    if (!accepts(state, part ? kind : 'en:', number, false)) return undefined;
    const titled = rest === '' || isTitle(rest, 80);
    const marker = `${keyword[1]} ${number}`;
    return {
      heading: {
        kind,
        rank: part ? 10 : 11,
        numbers: [number],
        label: titled && rest ? `${marker} ${rest}` : marker,
      },
      length: titled ? line.length : keyword[0].trimEnd().length,
      resets: [],
    };
  }
  const dotted = ENGLISH_DOTTED.exec(line);
  if (!dotted) return undefined;
  const numbers = dotted[1]!.split('.').map(Number);
  const rest = line.slice(dotted[0].length).trim();
  if (numbers.length === 1) {
    // "1. Purpose": a title, not the first step of a numbered list.
    if (dotted[2] !== '.' || !/^\p{Lu}/u.test(rest) || !isTitle(rest, 60)) return undefined;
  } else {
    const parent = numbers.slice(0, -1).join('.');
    const parentOpen = state.open.some(
      (heading) => heading.kind === 'en' && heading.numbers.join('.') === parent,
    );
    if (!parentOpen || (rest !== '' && !/^\p{L}/u.test(rest))) return undefined;
  }
  const number = numbers.at(-1)!;
  if (!accepts(state, `en:${numbers.slice(0, -1).join('.')}`, number, numbers.length > 1)) {
    return undefined;
  }
  const titled = rest === '' || isTitle(rest, 60);
  const marker = dotted[1]!;
  return {
    heading: {
      kind: 'en',
      rank: 10 + numbers.length,
      numbers,
      label: titled && rest ? `${marker}${dotted[2]} ${rest}` : marker,
    },
    length: titled ? line.length : dotted[1]!.length + dotted[2]!.length,
    resets: [],
  };
}

const CJK_START = /^[\p{Script=Han}“「《（(]/u;
const DIGITS = '零一二三四五六七八九';

/** 十二 → 12, 一百零五 → 105, ３ → 3; undefined for what is not a number. */
export function numberOf(text: string): number | undefined {
  const ascii = text.replace(/[０-９]/gu, (digit) => String(digit.charCodeAt(0) - 0xff10));
  if (/^\d+$/u.test(ascii)) return Number(ascii);
  let total = 0;
  let digit = -1;
  for (const char of text.replaceAll('〇', '零').replaceAll('两', '二')) {
    const value = DIGITS.indexOf(char);
    if (value >= 0) {
      digit = value;
      continue;
    }
    const unit = { 十: 10, 百: 100, 千: 1000 }[char];
    if (unit === undefined) return undefined;
    total += (digit < 0 ? 1 : digit) * unit;
    digit = -1;
  }
  if (digit > 0) total += digit;
  return total > 0 ? total : undefined;
}
