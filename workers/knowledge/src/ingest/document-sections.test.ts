import { describe, expect, it } from 'vitest';
import { HOSTILE_DOCUMENTS } from '../../../../dev/fixtures/hostile-documents';
import { detectFormat } from './detect-format';
import { DocumentError } from './document-error';
import { documentSections } from './document-sections';
import type { DocumentTooComplex } from './document-work-budget';

describe('hostile documents that are not PDFs', () => {
  it.each(HOSTILE_DOCUMENTS.map((doc) => [doc.name, doc] as const))(
    '%s: document_too_complex, naming the budget it spent',
    async (_, doc) => {
      const bytes = await doc.bytes();
      const detected = detectFormat(bytes);
      expect(detected?.format).toBe(doc.format);
      const error = await documentSections(bytes, detected!, { maxPages: 500 }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(DocumentError);
      expect((error as DocumentError).code).toBe('document_too_complex');
      expect(((error as DocumentError).cause as DocumentTooComplex).work).toBe(doc.work);
      expect((error as DocumentError).message).toMatch(/too large or too complex to read/);
    },
    60_000,
  );
});
