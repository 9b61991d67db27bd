import { Lexer, type Token } from 'marked';
import { parse } from 'parse5';

/**
 * Documents without pages (plain text, Markdown, HTML, Word) become sections, which take the
 * place of pages: they are numbered from 1, chunks never span them, and answers cite them by
 * their heading (`label`) where the document has headings.
 */
export interface Section {
  /** The heading path ("Eligibility › Income"), or null where the document has none. */
  label: string | null;
  text: string;
}

/** About a printed page of text: longer stretches become several sections. */
export const MAX_SECTION_CHARS = 4_000;

/** Plain text: paragraphs (blank-line separated) gathered into sections of at most a page. */
export function textSections(text: string): Section[] {
  return split(null, paragraphsOf(text));
}

/**
 * Markdown, read with a CommonMark lexer (marked): a heading of level 1–3 starts a section
 * labelled with the headings above it; the section keeps its Markdown source.
 */
export function markdownSections(text: string): Section[] {
  const sections: Section[] = [];
  const path: string[] = [];
  let blocks: string[] = [];
  const flush = () => {
    sections.push(...split(path.length > 0 ? path.join(' › ') : null, blocks));
    blocks = [];
  };
  for (const token of new Lexer({ gfm: true }).lex(text) as Token[]) {
    if (token.type === 'heading' && token.depth <= 3) {
      flush();
      path.length = token.depth - 1;
      path[token.depth - 1] = plain(token.text);
    }
    if (token.type !== 'space') blocks.push(token.raw.trim());
  }
  flush();
  return sections;
}

type Node = {
  nodeName: string;
  tagName?: string;
  value?: string;
  childNodes?: Node[];
  content?: Node;
};

const SKIPPED = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3']);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'li',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'table',
  'tr',
  'td',
  'th',
  'caption',
  'figure',
  'figcaption',
  'br',
  'hr',
  'h4',
  'h5',
  'h6',
  'address',
  'details',
  'summary',
  'ul',
  'ol',
  'dl',
  'form',
  'fieldset',
]);

/**
 * HTML, parsed as browsers parse it (parse5, the WHATWG algorithm): the visible text of the
 * body, one paragraph per block element; h1–h3 start sections labelled with their text.
 * Scripts, styles and other invisible content are never read.
 */
export function htmlSections(html: string): Section[] {
  const document = parse(html) as unknown as Node;
  const sections: Section[] = [];
  const path: string[] = [];
  let blocks: string[] = [];
  let current = '';
  const endBlock = () => {
    const text = current.replace(/\s+/g, ' ').trim();
    if (text) blocks.push(text);
    current = '';
  };
  const flush = () => {
    endBlock();
    sections.push(...split(path.length > 0 ? path.join(' › ') : null, blocks));
    blocks = [];
  };
  const walk = (node: Node) => {
    const tag = node.tagName;
    if (tag && SKIPPED.has(tag)) return;
    if (node.nodeName === '#text') {
      current += node.value ?? '';
      return;
    }
    if (tag && HEADINGS.has(tag)) {
      flush();
      const level = Number(tag[1]);
      path.length = level - 1;
      path[level - 1] = textOf(node).replace(/\s+/g, ' ').trim();
      blocks.push(path[level - 1]!);
      return;
    }
    const block = tag !== undefined && BLOCKS.has(tag);
    if (block) endBlock();
    for (const child of node.content?.childNodes ?? node.childNodes ?? []) walk(child);
    if (block) endBlock();
  };
  walk(document);
  flush();
  return sections.filter((section) => section.text.trim() !== '');
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return node.value ?? '';
  if (node.tagName && SKIPPED.has(node.tagName)) return '';
  return (node.childNodes ?? []).map(textOf).join('');
}

/** Heading text without Markdown inline syntax (emphasis, code, links). */
function plain(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .trim();
}

function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/** Blocks gathered into sections of at most MAX_SECTION_CHARS, all with the same label. */
function split(label: string | null, blocks: readonly string[]): Section[] {
  const sections: Section[] = [];
  let text = '';
  for (const block of blocks) {
    if (text && [...text].length + [...block].length + 2 > MAX_SECTION_CHARS) {
      sections.push({ label, text });
      text = '';
    }
    text = text ? `${text}\n\n${block}` : block;
  }
  if (text) sections.push({ label, text });
  return sections;
}
