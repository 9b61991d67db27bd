import { messages } from './i18n/messages';

/** What says where a passage is: a chat source, a search result, an official answer's citation. */
export interface Placed {
  /** 1-based; the section's number for formats without pages. */
  page: number;
  /** For formats without pages: the section's heading path, when it has one. */
  section?: string | null | undefined;
  /** The passage's chapter and article, or numbered section, when its document has them. */
  heading_path?: string | null | undefined;
}

/**
 * Where a passage was found: its page, with its chapter and article when the document has them
 * (`第三章 财政支持 › 第十二条 · 第 2 页`), or its section's headings for formats without pages
 * (the heading path, when there is one, is the section's label and what lies within it). A
 * section's number is no page: it is never called one.
 */
export function sourcePlace(source: Placed): string {
  const m = messages().place;
  const path = source.heading_path;
  if (source.section) return m.section(path ?? source.section);
  return path ? m.heading(path, source.page) : m.page(source.page);
}
