import { describe, expect, it } from 'vitest';
import { retryCanHelp } from './file-status';

const failed = (code: string) => ({ error: { code, message: '' } });

describe('retryCanHelp', () => {
  it('is false for a failure of the document itself, PDF or not', () => {
    for (const code of [
      'pdf_encrypted',
      'pdf_corrupt',
      'pdf_too_many_pages',
      'pdf_too_complex',
      'pdf_ocr_no_text',
      'document_corrupt',
      'document_too_complex',
      'unsupported_format',
      'file_too_large',
    ]) {
      expect(retryCanHelp(failed(code)), code).toBe(false);
    }
  });

  it('is true for what another try may pass: services away, OCR switched on since, the unknown', () => {
    for (const code of [
      'ocr_gave_up',
      'reader_unavailable',
      'ingest_failed',
      'pdf_no_text',
      'new_code',
    ]) {
      expect(retryCanHelp(failed(code)), code).toBe(true);
    }
    expect(retryCanHelp({ error: null } as never)).toBe(true);
  });
});
