import { defaultTreeAdapter, type DefaultTreeAdapterMap, type TreeAdapter } from 'parse5';
import type { DocumentWorkMeter } from './document-work-budget';

/** A node of the tree htmlSections walks: parse5's default nodes, with their depth. */
export interface MeteredNode {
  nodeName: string;
  tagName?: string;
  /** The few attributes reading needs (see KEPT_ATTRIBUTES); others are dropped. */
  attrs?: { name: string; value: string }[];
  value?: string;
  /** A text node's text when it came in several pieces (read it with {@link textOf}). */
  pieces?: TextPieces;
  childNodes?: MeteredNode[];
  content?: MeteredNode;
  depth?: number;
}

/** A text node's text. */
export function textOf(node: MeteredNode): string {
  return node.pieces ? node.pieces.text() : (node.value ?? '');
}

/** An attribute the tree kept (KEPT_ATTRIBUTES), or undefined. */
export function attributeOf(node: MeteredNode, name: string): string | undefined {
  return node.attrs?.find((attribute) => attribute.name === name)?.value;
}

/** Elements whose content is never visible text. */
export const INVISIBLE = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
]);

/** Elements that start a block of their own: what they hold is a paragraph apart. */
export const BLOCKS = new Set([
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
 * Attributes kept, by element: a table cell's spans (html-table.ts) and a table's role (one
 * that says it only lays the page out). Every other attribute is dropped when it is made.
 */
const KEPT_ATTRIBUTES: ReadonlyMap<string, readonly string[]> = new Map([
  ['td', ['colspan', 'rowspan']],
  ['th', ['colspan', 'rowspan']],
  ['table', ['role']],
]);

/**
 * The text of one node, gathered piece by piece. parse5 hands text over in short runs (a word,
 * then the space after it), and its default tree appends each to the node with `+=`: V8 then
 * keeps a string of a million runs as a tree of a million concatenation nodes, about 32 bytes
 * each, until something reads it (a page of 5 million characters took more than 64 MB that
 * way). Runs are joined a few thousand at a time instead.
 */
class TextPieces {
  readonly #joined: string[] = [];
  #recent: string[] = [];

  constructor(first: string) {
    this.#recent.push(first);
  }

  add(piece: string): void {
    this.#recent.push(piece);
    if (this.#recent.length >= 4_096) {
      this.#joined.push(this.#recent.join(''));
      this.#recent = [];
    }
  }

  text(): string {
    return this.#joined.join('') + this.#recent.join('');
  }
}

type Node = DefaultTreeAdapterMap['node'] & { depth?: number };
type ParentNode = DefaultTreeAdapterMap['parentNode'] & { depth?: number };

/**
 * parse5's default tree, built under a work meter: every element the parser makes is charged
 * as it is made (the HTML algorithm makes more elements than the source has tags: formatting
 * elements are re-opened in every new block, and a hostile page can make that quadratic), as
 * is its depth when it is inserted and every character of text. Only what reading the text
 * needs is kept: comments and attributes (but for KEPT_ATTRIBUTES, none of them on formatting
 * elements) are dropped when they are made, which also lets the parser's duplicate check
 * ("Noah's Ark") cap identical formatting elements at three.
 */
function append(node: MeteredNode, piece: string): void {
  if (node.pieces) node.pieces.add(piece);
  else {
    node.pieces = new TextPieces(node.value ?? '');
    node.pieces.add(piece);
    node.value = '';
  }
}

export function meteredTreeAdapter(meter: DocumentWorkMeter): TreeAdapter<DefaultTreeAdapterMap> {
  let text = 0;
  const placed = (parent: ParentNode, node: Node) => {
    if ('tagName' in node) {
      node.depth = (parent.depth ?? 0) + 1;
      meter.nesting(node.depth);
    }
  };
  const charge = (chars: number) => {
    text += chars;
    meter.pending(text);
  };
  return {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      meter.element(0);
      const kept = KEPT_ATTRIBUTES.get(tagName);
      return defaultTreeAdapter.createElement(
        tagName,
        namespaceURI,
        kept ? attrs.filter((attribute) => kept.includes(attribute.name)) : [],
      );
    },
    createCommentNode() {
      return defaultTreeAdapter.createCommentNode('');
    },
    adoptAttributes() {},
    appendChild(parent, node) {
      defaultTreeAdapter.appendChild(parent, node);
      placed(parent, node);
    },
    insertBefore(parent, node, reference) {
      defaultTreeAdapter.insertBefore(parent, node, reference);
      placed(parent, node);
    },
    insertText(parent, value) {
      charge(value.length);
      const last = parent.childNodes.at(-1) as MeteredNode | undefined;
      if (last?.nodeName === '#text') append(last, value);
      else defaultTreeAdapter.insertText(parent, value);
    },
    insertTextBefore(parent, value, reference) {
      charge(value.length);
      const children = parent.childNodes as MeteredNode[];
      const before = children[children.indexOf(reference as MeteredNode) - 1];
      if (before?.nodeName === '#text') append(before, value);
      else defaultTreeAdapter.insertTextBefore(parent, value, reference);
    },
  };
}
