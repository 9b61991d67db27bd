import { defaultTreeAdapter, type DefaultTreeAdapterMap, type TreeAdapter } from 'parse5';
import type { DocumentWorkMeter } from './document-work-budget';

/** A node of the tree htmlSections walks: parse5's default nodes, with their depth. */
export interface MeteredNode {
  nodeName: string;
  tagName?: string;
  value?: string;
  childNodes?: MeteredNode[];
  content?: MeteredNode;
  depth?: number;
}

type Node = DefaultTreeAdapterMap['node'] & { depth?: number };
type ParentNode = DefaultTreeAdapterMap['parentNode'] & { depth?: number };

/**
 * parse5's default tree, built under a work meter: every element the parser makes is charged
 * as it is made (the HTML algorithm makes more elements than the source has tags: formatting
 * elements are re-opened in every new block, and a hostile page can make that quadratic), as
 * is its depth when it is inserted and every character of text. Only what reading the text
 * needs is kept: attributes and comments are dropped when they are made, which also lets the
 * parser's duplicate check ("Noah's Ark") cap identical formatting elements at three.
 */
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
    createElement(tagName, namespaceURI) {
      meter.element(0);
      return defaultTreeAdapter.createElement(tagName, namespaceURI, []);
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
      defaultTreeAdapter.insertText(parent, value);
    },
    insertTextBefore(parent, value, reference) {
      charge(value.length);
      defaultTreeAdapter.insertTextBefore(parent, value, reference);
    },
  };
}
