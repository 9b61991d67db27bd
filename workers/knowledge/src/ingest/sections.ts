import { Lexer, type Token } from 'marked';
import { parse } from 'parse5';
import { DocumentTooComplex, type DocumentWorkMeter } from './document-work-budget';
import { htmlTable } from './html-table';
import {
  BLOCKS,
  INVISIBLE,
  meteredTreeAdapter,
  textOf as nodeText,
  type MeteredNode,
} from './html-tree';
import { SectionWriter, type Section } from './section-writer';

export { MAX_SECTION_CHARS, type Section } from './section-writer';

/** Plain text: paragraphs (blank-line separated) gathered into sections of at most a page. */
export function textSections(text: string, meter: DocumentWorkMeter): Section[] {
  const writer = new SectionWriter(meter);
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const block = paragraph.trim();
    if (block) writer.block(block);
  }
  return writer.sections();
}

/**
 * Markdown, read with a CommonMark lexer (marked): a heading of level 1–3 starts a section
 * labelled with the headings above it; the section keeps its Markdown source (a table longer
 * than a section goes on in the next under its header rows again). Only the block
 * level is lexed (inline tokens are never needed), after a look at every line has bounded how
 * many blocks there can be and how deeply quotes and lists can nest: the lexer recurses once
 * per level, and builds every block's token before the first one is read.
 */
export function markdownSections(text: string, meter: DocumentWorkMeter): Section[] {
  const source = text.replace(/\r\n?/g, '\n');
  boundMarkdown(source, meter);
  let tokens: Token[];
  try {
    tokens = new Lexer({ gfm: true }).blockTokens(source, []);
  } catch (err) {
    // Nesting the line scan could not see (it bounds it from above): the stack ran out.
    if (err instanceof RangeError) throw new DocumentTooComplex('depth', 0);
    throw err;
  }
  const writer = new SectionWriter(meter);
  for (const token of tokens) {
    if (token.type === 'heading' && token.depth <= 3) {
      writer.heading(token.depth as 1 | 2 | 3, plain(token.text));
    }
    if (token.type === 'table') writer.table(token.raw.trim().split('\n'));
    else if (token.type !== 'space') writer.block(token.raw.trim());
  }
  return writer.sections();
}

/**
 * The lexer builds every block's token before the first one is read, and recurses once per
 * level of nesting. Every block starts on a line of its own, and every level of nesting needs
 * a marker (`>`, `-`, `1.`) or two columns of indentation on the lines inside it: the lines
 * (charged as the format's elements) and their prefixes bound both before the lexer starts.
 */
function boundMarkdown(source: string, meter: DocumentWorkMeter): void {
  for (let start = 0; start < source.length;) {
    let end = source.indexOf('\n', start);
    if (end === -1) end = source.length;
    if (end > start) meter.element(containerDepth(source, start, end));
    start = end + 1;
  }
}

/** An upper bound of the containers (block quotes, list items) open on a line. */
function containerDepth(source: string, start: number, end: number): number {
  let depth = 0;
  let columns = 0;
  let i = start;
  while (i < end) {
    const c = source.charCodeAt(i);
    if (c === SPACE) {
      columns++;
      i++;
    } else if (c === TAB) {
      columns += 4;
      i++;
    } else if (c === GREATER_THAN) {
      depth++;
      i++;
    } else if ((c === DASH || c === STAR || c === PLUS) && isBlank(source.charCodeAt(i + 1))) {
      depth++;
      i++;
    } else {
      let digits = 0;
      while (digits < 10 && isDigit(source.charCodeAt(i + digits))) digits++;
      const after = source.charCodeAt(i + digits);
      if (
        digits === 0 ||
        !(after === DOT || after === PAREN) ||
        !isBlank(source.charCodeAt(i + digits + 1))
      )
        break;
      depth++;
      i += digits + 1;
    }
  }
  return depth + Math.floor(columns / 2);
}

const SPACE = 0x20;
const TAB = 0x09;
const GREATER_THAN = 0x3e;
const DASH = 0x2d;
const STAR = 0x2a;
const PLUS = 0x2b;
const DOT = 0x2e;
const PAREN = 0x29;
const isBlank = (c: number) => c === SPACE || c === TAB || Number.isNaN(c) || c === 0x0a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

const HEADINGS = new Set(['h1', 'h2', 'h3']);

/**
 * HTML, parsed as browsers parse it (parse5, the WHATWG algorithm), into a tree whose every
 * element is charged to the meter as it is made (html-tree.ts): the visible text of the body,
 * one paragraph per block element, a table of data as a Markdown table (html-table.ts); h1–h3
 * start sections labelled with their text. Scripts, styles and other invisible content are
 * never read. The tree is walked without recursion, so its depth costs no stack.
 */
export function htmlSections(html: string, meter: DocumentWorkMeter): Section[] {
  const document = parse(html, { treeAdapter: meteredTreeAdapter(meter) });
  const writer = new SectionWriter(meter);
  let current = '';
  const endBlock = () => {
    const text = current.replace(/\s+/g, ' ').trim();
    if (text) writer.block(text);
    current = '';
  };
  // Nodes to visit, last first; `END` marks where a block element's children end.
  const END = null;
  const stack: (MeteredNode | typeof END)[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === END) {
      endBlock();
      continue;
    }
    if (node === undefined) break;
    const tag = node.tagName;
    if (tag && INVISIBLE.has(tag)) continue;
    if (node.nodeName === '#text') {
      current += nodeText(node);
      meter.pending(current.length);
      continue;
    }
    if (tag && HEADINGS.has(tag)) {
      endBlock();
      const text = textOf(node).replace(/\s+/g, ' ').trim();
      writer.heading(Number(tag[1]) as 1 | 2 | 3, text);
      if (text) writer.block(text);
      continue;
    }
    if (tag === 'table') {
      endBlock();
      const table = htmlTable(node, meter);
      if (table) {
        for (const caption of table.caption) writer.block(caption);
        writer.table(table.lines);
        continue;
      }
    }
    const block = tag !== undefined && BLOCKS.has(tag);
    if (block) {
      endBlock();
      stack.push(END);
    }
    const children = node.content?.childNodes ?? node.childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  endBlock();
  return writer.sections();
}

/** A heading's text, its invisible parts left out (without recursion, like the walk). */
function textOf(root: MeteredNode): string {
  let text = '';
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') text += nodeText(node);
    else if (!(node.tagName && INVISIBLE.has(node.tagName))) {
      const children = node.childNodes ?? [];
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return text;
}

/** Heading text without Markdown inline syntax (emphasis, code, links). */
function plain(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .trim();
}
