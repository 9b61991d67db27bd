import type { FileFormat } from '../db/schema';
import { decodeText, type DetectedFormat } from './detect-format';
import { describe, DocumentError, documentErrorOf } from './document-error';
import { DOCUMENT_WORK_BUDGETS, DocumentWorkMeter } from './document-work-budget';
import { docxSections } from './docx-text';
import { htmlSections, markdownSections, textSections, type Section } from './sections';

/**
 * The sections of a document without pages (text, Markdown, HTML, Word), which take the place
 * of pages. Throws only {@link DocumentError} for content it cannot use.
 */
export async function documentSections(
  bytes: Uint8Array,
  detected: DetectedFormat,
  limits: { maxPages: number },
): Promise<Section[]> {
  const format = detected.format as Exclude<FileFormat, 'pdf'>;
  let sections: Section[];
  try {
    sections =
      format === 'docx'
        ? await docxSections(bytes)
        : sectionsOfText(format, textOf(bytes, detected));
  } catch (err) {
    throw documentErrorOf(err, limits.maxPages, format);
  }
  if (sections.every((section) => !/\S/u.test(section.text))) {
    throw new DocumentError('no_text', format, describe('no_text', format, limits.maxPages));
  }
  if (sections.length > limits.maxPages) {
    throw new DocumentError(
      'too_many_pages',
      format,
      describe('too_many_pages', format, limits.maxPages, sections.length),
    );
  }
  // NUL cannot be stored in Postgres text, and is never text a reader means.
  return sections.map((section) => ({ ...section, text: section.text.replaceAll('\u0000', '') }));
}

function sectionsOfText(format: 'text' | 'markdown' | 'html', text: string): Section[] {
  const meter = new DocumentWorkMeter(DOCUMENT_WORK_BUDGETS[format]);
  if (format === 'html') return htmlSections(text, meter);
  // Text and Markdown are their text: one far over the budget is refused before any parsing.
  meter.pending(text.length);
  if (format === 'markdown') return markdownSections(text, meter);
  return textSections(text, meter);
}

function textOf(bytes: Uint8Array, detected: DetectedFormat): string {
  const format = detected.format as Exclude<FileFormat, 'pdf'>;
  try {
    return decodeText(bytes, detected.encoding ?? 'utf-8').replace(/^\uFEFF/, '');
  } catch (err) {
    throw new DocumentError('bad_encoding', format, describe('bad_encoding', format, 0), err);
  }
}
