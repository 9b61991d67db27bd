import { createMarkdownView } from '../markdown/markdown-view';

/** The body's class while a record is laid out for printing (record.css shows only the record). */
const PRINTING = 'printing-record';

/**
 * Prints a conversation's record: the same Markdown the export downloads, rendered into a
 * print-only element after the app, then the browser's print dialog, where "Save as PDF" is
 * a destination. The browser lays the record out with the reader's own CJK fonts; a PDF made
 * in a Worker would have to embed a CJK font of several MB in every file and in the bundle.
 */
export function printRecord(markdown: string): void {
  document.querySelector('.print-record')?.remove();
  const sheet = document.createElement('article');
  sheet.className = 'print-record markdown';
  document.body.append(sheet);
  createMarkdownView(sheet).update(markdown);
  document.body.classList.add(PRINTING);
  const done = () => {
    window.removeEventListener('afterprint', done);
    document.body.classList.remove(PRINTING);
    sheet.remove();
  };
  window.addEventListener('afterprint', done);
  window.print();
}
