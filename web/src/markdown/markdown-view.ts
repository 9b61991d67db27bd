/**
 * Answers on the page: Markdown through marked and DOMPurify (./markdown/), block by block.
 *
 * An answer streams in a few characters at a time and is shown again once per animation
 * frame. Appending text can only change the last blocks of a document, so each top-level
 * block keeps its DOM while its source is unchanged: a frame lexes the answer (cheap) and
 * renders and sanitises only the blocks that changed (the costly part), usually the last one.
 */
import type { Token } from 'marked';
import { messages } from '../i18n/messages';
import { linkCitations } from '../chat/citation-links';
import { blockHtml, createMarkdown, lexBlocks } from './markdown-html';
import { sanitizedFragment } from './trusted-html';

const markdown = createMarkdown(() => ({
  done: messages().chat.taskDone,
  open: messages().chat.taskOpen,
}));

interface Shown {
  raw: string;
  nodes: ChildNode[];
}

export interface MarkdownView {
  /** Shows `source`, re-rendering only the blocks that differ from what is shown. */
  update(source: string): void;
  /** Names what the answer holds (wide tables, task boxes) again, in the current language. */
  relabel(): void;
}

export function createMarkdownView(container: ParentNode): MarkdownView {
  let shown: Shown[] = [];
  let linksKey = '';

  return {
    update(source) {
      const started = performance.now();
      const { tokens, links } = lexBlocks(markdown, source);
      // A reference definition anywhere can change links in any block: start afresh then.
      const key = JSON.stringify(links);
      let kept = 0;
      if (key === linksKey) {
        while (
          kept < shown.length &&
          kept < tokens.length &&
          shown[kept]!.raw === tokens[kept]!.raw
        )
          kept += 1;
      }
      linksKey = key;
      for (const stale of shown.slice(kept)) for (const node of stale.nodes) node.remove();
      const fresh = tokens.slice(kept).map((token: Token): Shown => {
        const fragment = sanitizedFragment(blockHtml(markdown, token, links));
        fragment.querySelectorAll('table').forEach((table) => scrollable(table));
        linkCitations(fragment);
        return { raw: token.raw, nodes: [...fragment.childNodes] };
      });
      container.append(...fresh.flatMap((block) => block.nodes));
      shown = [...shown.slice(0, kept), ...fresh];
      // Visible in the browser's performance tools, and read by the streaming benchmark.
      performance.measure('kbchat:markdown', {
        start: started,
        detail: { chars: source.length, blocks: tokens.length, rendered: fresh.length },
      });
    },
    relabel() {
      const m = messages();
      for (const box of container.querySelectorAll('.table-scroll'))
        box.setAttribute('aria-label', m.chat.table);
      for (const task of container.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'))
        task.setAttribute('aria-label', task.checked ? m.chat.taskDone : m.chat.taskOpen);
    },
  };
}

/**
 * A wide table scrolls inside the answer instead of widening the page; the scrolling box can
 * take the focus, so the keyboard can scroll it too.
 */
function scrollable(table: HTMLTableElement): void {
  const box = document.createElement('div');
  box.className = 'table-scroll';
  box.setAttribute('role', 'region');
  box.tabIndex = 0;
  box.setAttribute('aria-label', messages().chat.table);
  table.replaceWith(box);
  box.append(table);
}
