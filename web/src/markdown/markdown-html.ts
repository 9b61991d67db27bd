/**
 * Markdown → HTML with marked (CommonMark and GitHub Flavored Markdown: tables, strikethrough,
 * task lists, autolinks), configured so that what the model or a document writes can only
 * ever be text, links to the web, or Markdown's own structure:
 *
 * - raw HTML is escaped: `<img onerror=…>` shows as those characters, it is never markup;
 * - links are links only when absolute http(s) or mailto; anything else shows as its text;
 * - images are never loaded: an image becomes a link to it (when http(s)), or its alt text;
 * - headings start at h3, under the page's own headings.
 *
 * The HTML goes through DOMPurify before it reaches the page (./trusted-html.ts), which
 * enforces the same allow-list again.
 */
import { Marked, type Links, type Token } from 'marked';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Only absolute http(s) and mailto addresses are followed. */
export function safeHref(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** What a task-list box is called to a screen reader, in the reader's language. */
export interface TaskLabels {
  done: string;
  open: string;
}

export function createMarkdown(labels: () => TaskLabels): Marked {
  return new Marked({
    gfm: true,
    // A single line break in an answer is a line break, as in GitHub comments: models and PDF
    // excerpts put one line per point without blank lines between them.
    breaks: true,
    renderer: {
      html: ({ text }) => escapeHtml(text),
      heading({ tokens, depth }) {
        const level = Math.min(6, depth + 2);
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      link({ href, title, tokens }) {
        const text = this.parser.parseInline(tokens);
        const url = safeHref(href);
        if (!url) return text;
        const titled = title ? ` title="${escapeHtml(title)}"` : '';
        return `<a href="${escapeHtml(url)}"${titled} rel="noopener noreferrer nofollow" target="_blank">${text}</a>`;
      },
      image({ href, text }) {
        const url = safeHref(href);
        const label = escapeHtml(text || href);
        return url && url.startsWith('http')
          ? `<a href="${escapeHtml(url)}" rel="noopener noreferrer nofollow" target="_blank">${label}</a>`
          : label;
      },
      checkbox({ checked }) {
        const { done, open } = labels();
        return `<input type="checkbox" disabled${checked ? ' checked' : ''} aria-label="${escapeHtml(checked ? done : open)}"> `;
      },
    },
  });
}

/** The answer's top-level blocks, each with its source (`raw`), and its reference links. */
export interface Blocks {
  tokens: Token[];
  links: Links;
}

export function lexBlocks(markdown: Marked, source: string): Blocks {
  const tokens = markdown.lexer(source);
  return { tokens: tokens.filter((token) => token.type !== 'space'), links: tokens.links };
}

/** One top-level block as HTML (unsanitised: for ./trusted-html.ts only). */
export function blockHtml(markdown: Marked, token: Token, links: Links): string {
  return markdown.parser(Object.assign([token], { links }));
}
