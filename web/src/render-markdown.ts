import { h, type Child } from './dom';
import { parseMarkdown, type Block, type Inline } from './markdown';

/** Markdown → DOM nodes. Every string goes in as a text node: nothing is parsed as HTML. */
export function renderMarkdown(source: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const block of parseMarkdown(source)) fragment.append(renderBlock(block));
  return fragment;
}

function renderBlock(block: Block): Node {
  switch (block.type) {
    case 'paragraph':
      return h('p', null, renderInline(block.content));
    case 'heading': {
      // Answers sit under the page's own headings: their headings start at h3.
      const level = Math.min(6, block.level + 2) as 3 | 4 | 5 | 6;
      return h(`h${level}`, null, renderInline(block.content));
    }
    case 'list': {
      const items = block.items.map((item) => h('li', null, renderItem(item)));
      return block.ordered
        ? h('ol', { start: block.start === 1 ? undefined : block.start }, items)
        : h('ul', null, items);
    }
    case 'code':
      return h('pre', null, h('code', null, block.text));
    case 'quote':
      return h('blockquote', null, block.children.map(renderBlock));
    case 'rule':
      return h('hr');
  }
}

/** A list item's first paragraph is its text (no <p>), as in a tight list. */
function renderItem(blocks: Block[]): Child[] {
  return blocks.map((block, index) =>
    index === 0 && block.type === 'paragraph' ? renderInline(block.content) : renderBlock(block),
  );
}

function renderInline(content: Inline[]): Child[] {
  return content.map((node): Child => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'strong':
        return h('strong', null, renderInline(node.children));
      case 'em':
        return h('em', null, renderInline(node.children));
      case 'code':
        return h('code', null, node.text);
      case 'break':
        return h('br');
      case 'link':
        return h(
          'a',
          { href: node.href, rel: 'noopener noreferrer nofollow', target: '_blank' },
          renderInline(node.children),
        );
    }
  });
}
