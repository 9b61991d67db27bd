import { translations } from '../define';
import { formatInteger } from '../format';

/**
 * Where a passage is in its document, wherever one is named (chat sources, citations, the gap
 * report, the retrieval test, official answers): its page, or for formats without pages
 * (DOCX, Markdown, HTML, text) its section, by the section's headings. Put together by
 * ../../source-place.ts.
 */
export const place = translations({
  en: {
    page: (page: number) => `page ${formatInteger(page)}`,
    section: (section: string) => `section “${section}”`,
    /** A passage's chapter and article (or numbered section) with its page. */
    heading: (path: string, page: number) => `${path} · page ${formatInteger(page)}`,
  },
  zh: {
    page: (page) => `第 ${formatInteger(page)} 页`,
    section: (section) => `章节“${section}”`,
    heading: (path, page) => `${path} · 第 ${formatInteger(page)} 页`,
  },
});
