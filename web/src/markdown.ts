/**
 * The Markdown the model's answers use, parsed into a small tree: paragraphs, headings,
 * ordered and unordered lists (nested by indentation), code blocks, quotes, rules; inline
 * strong, emphasis, code and http(s)/mailto links. Everything else is text.
 *
 * The tree holds strings only; ./render-markdown.ts turns it into DOM nodes with
 * `textContent`, so no markup from the model or from a document is ever interpreted. This
 * file has no DOM dependency (it is unit-tested in Node).
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'break' };

export type Block =
  | { type: 'paragraph'; content: Inline[] }
  | { type: 'heading'; level: number; content: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'code'; text: string }
  | { type: 'quote'; children: Block[] }
  | { type: 'rule' };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^([ \t]*)(\d{1,9}[.)]|[-*+])[ \t]+(.*)$/;

interface ItemLine {
  indent: number;
  ordered: boolean;
  number: number;
  /** Where the item's text starts: continuation lines indented this far belong to it. */
  contentIndent: number;
  text: string;
}

function itemOf(line: string): ItemLine | undefined {
  const match = ITEM.exec(line);
  if (!match) return undefined;
  const [, lead = '', marker = '', text = ''] = match;
  const indent = widthOf(lead);
  const ordered = /\d/.test(marker);
  return {
    indent,
    ordered,
    number: ordered ? Number.parseInt(marker, 10) : 1,
    contentIndent: indent + marker.length + 1,
    text,
  };
}

function widthOf(whitespace: string): number {
  let width = 0;
  for (const ch of whitespace) width += ch === '\t' ? 4 - (width % 4) : 1;
  return width;
}

const indentOf = (line: string) => widthOf(/^[ \t]*/.exec(line)?.[0] ?? '');
const isBlank = (line: string) => line.trim() === '';

/** Removes up to `count` columns of leading whitespace. */
function dedent(line: string, count: number): string {
  let width = 0;
  let i = 0;
  while (i < line.length && width < count && (line[i] === ' ' || line[i] === '\t')) {
    width += line[i] === '\t' ? 4 - (width % 4) : 1;
    i += 1;
  }
  return line.slice(i);
}

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    itemOf(line) !== undefined
  );
}

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(marker)) {
        body.push(lines[i]!);
        i += 1;
      }
      i += 1; // the closing fence (or the end)
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({
        type: 'heading',
        level: heading[1]!.length,
        content: parseInline(heading[2] ?? ''),
      });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) {
        body.push(QUOTE.exec(lines[i]!)![1]!);
        i += 1;
      }
      blocks.push({ type: 'quote', children: parseBlocks(body) });
      continue;
    }
    const item = itemOf(line);
    if (item) {
      i = parseList(lines, i, item, blocks);
      continue;
    }
    const body = [line.trim()];
    i += 1;
    while (i < lines.length && !isBlank(lines[i]!) && !startsBlock(lines[i]!)) {
      body.push(lines[i]!.trim());
      i += 1;
    }
    blocks.push({ type: 'paragraph', content: parseInline(body.join('\n')) });
  }
  return blocks;
}

/** Parses the list that starts at `lines[start]`; returns the index after it. */
function parseList(lines: string[], start: number, first: ItemLine, out: Block[]): number {
  const items: string[][] = [];
  let current: string[] = [];
  let contentIndent = first.contentIndent;
  let i = start;
  while (i < lines.length) {
    const line = lines[i]!;
    const item = itemOf(line);
    if (item && item.indent <= first.indent) {
      if (item.ordered !== first.ordered || item.indent < first.indent) break;
      if (i !== start) items.push(current);
      current = [item.text];
      contentIndent = item.contentIndent;
      i += 1;
      continue;
    }
    if (isBlank(line)) {
      // A blank line ends the list unless the list goes on after it.
      let next = i + 1;
      while (next < lines.length && isBlank(lines[next]!)) next += 1;
      const after = lines[next];
      const nextItem = after === undefined ? undefined : itemOf(after);
      const continues =
        after !== undefined &&
        (indentOf(after) > first.indent ||
          (nextItem !== undefined &&
            nextItem.indent === first.indent &&
            nextItem.ordered === first.ordered));
      if (!continues) break;
      current.push('');
      i += 1;
      continue;
    }
    if (indentOf(line) > first.indent) {
      current.push(dedent(line, contentIndent));
      i += 1;
      continue;
    }
    if (startsBlock(line) || current.at(-1) === '') break;
    current.push(line.trim()); // a lazy continuation of the item's paragraph
    i += 1;
  }
  items.push(current);
  out.push({
    type: 'list',
    ordered: first.ordered,
    start: first.number,
    items: items.map((body) => parseBlocks(body)),
  });
  return i;
}

const ESCAPABLE = /[\\`*_[\]()#+\-.!>~|{}]/;

export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ type: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\' && i + 1 < source.length && ESCAPABLE.test(source[i + 1]!)) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === '\n') {
      flush();
      out.push({ type: 'break' });
      i += 1;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(source.slice(i))![0];
      const close = source.indexOf(run, i + run.length);
      if (close !== -1) {
        flush();
        const code = source.slice(i + run.length, close);
        out.push({
          type: 'code',
          text: code.length > 2 && /^ .* $/.test(code) ? code.slice(1, -1) : code,
        });
        i = close + run.length;
        continue;
      }
      text += run;
      i += run.length;
      continue;
    }
    if ((ch === '*' || ch === '_') && source[i + 1] === ch) {
      const marker = ch + ch;
      const close = source.indexOf(marker, i + 2);
      if (close > i + 2 && !/\s/.test(source[i + 2]!) && !/\s/.test(source[close - 1]!)) {
        flush();
        out.push({ type: 'strong', children: parseInline(source.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    }
    if (ch === '*' && source[i + 1] !== '*' && i + 1 < source.length) {
      const close = findSingle(source, i + 1);
      if (close !== -1 && !/\s/.test(source[i + 1]!) && !/\s/.test(source[close - 1]!)) {
        flush();
        out.push({ type: 'em', children: parseInline(source.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    if (ch === '[') {
      const link = /^\[([^\]\n]+)\]\(([^()\s]+)\)/.exec(source.slice(i));
      const href = link ? safeHref(link[2]!) : undefined;
      if (link && href) {
        flush();
        out.push({ type: 'link', href, children: parseInline(link[1]!) });
        i += link[0].length;
        continue;
      }
    }
    text += ch;
    i += 1;
  }
  flush();
  return out;
}

/** The next single `*` (not part of `**`) after `from`, or -1. */
function findSingle(source: string, from: number): number {
  for (let i = from; i < source.length; i += 1) {
    if (source[i] === '\n') return -1;
    if (source[i] === '\\') {
      i += 1; // an escaped character is never a marker
      continue;
    }
    if (source[i] !== '*') continue;
    if (source[i + 1] === '*') {
      i += 1;
      continue;
    }
    return i;
  }
  return -1;
}

/** Only absolute http(s) and mailto links are links; anything else stays text. */
export function safeHref(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
