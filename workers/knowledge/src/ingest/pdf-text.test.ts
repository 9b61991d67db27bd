import { getDocumentProxy } from 'unpdf';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHINESE_POLICY_FIXTURE,
  ENGLISH_POLICY_FIXTURE,
  makeEncryptedPdf,
  makeHtmlFile,
  makeManyPagesPdf,
  makeScannedPdf,
  makeTextPdf,
  manyPagesText,
} from '../../../../dev/fixtures/pdf-builder';
import {
  describePdfFailure,
  extractPdfText,
  type PdfFailureReason,
  PdfTextError,
} from './pdf-text';

const LIMITS = { maxPages: 300 };

/** pdf.js turns wrapped lines into line breaks; the fixtures' text has spaces there. */
const collapseWhitespace = (text: string) => text.replace(/\s+/g, ' ').trim();
/** Chinese has no spaces, so a wrapped line is compared without any whitespace. */
const withoutWhitespace = (text: string) => text.replace(/\s+/g, '');

async function failureOf(promise: Promise<unknown>): Promise<PdfTextError> {
  const outcome = await promise.then(
    () => new Error('expected the extraction to fail'),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(PdfTextError);
  return outcome as PdfTextError;
}

function pagesContaining(pages: string[], term: string, normalise: (text: string) => string) {
  return pages.flatMap((page, index) =>
    normalise(page).includes(normalise(term)) ? [index + 1] : [],
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('extractPdfText: documents with text', () => {
  it('reads an English document page by page', async () => {
    const result = await extractPdfText(makeTextPdf(ENGLISH_POLICY_FIXTURE.pages), LIMITS);

    expect(result.pageCount).toBe(3);
    expect(result.pages.map(collapseWhitespace)).toEqual(
      ENGLISH_POLICY_FIXTURE.pages.map(collapseWhitespace),
    );
    for (const [term, page] of Object.entries(ENGLISH_POLICY_FIXTURE.distinctiveTerms)) {
      expect(pagesContaining(result.pages, term, collapseWhitespace), term).toEqual([page]);
    }
  });

  it('joins wrapped lines and ends a paragraph at a line that stops short of the margin', async () => {
    const first =
      'Applications are lodged at the town hall or online, and every application is answered ' +
      'in writing within twenty working days of the date it was received.';
    const { pages } = await extractPdfText(
      makeTextPdf([`${first}\nLate applications are refused.`]),
      LIMITS,
    );

    expect(pages).toEqual([`${first}\n\nLate applications are refused.`]);
  });

  it('reads a Chinese document (Type0 font, ToUnicode CMap) page by page', async () => {
    const result = await extractPdfText(makeTextPdf(CHINESE_POLICY_FIXTURE.pages), LIMITS);

    expect(result.pageCount).toBe(2);
    expect(result.pages.map(withoutWhitespace)).toEqual(
      CHINESE_POLICY_FIXTURE.pages.map(withoutWhitespace),
    );
    for (const [term, page] of Object.entries(CHINESE_POLICY_FIXTURE.distinctiveTerms)) {
      expect(pagesContaining(result.pages, term, withoutWhitespace), term).toEqual([page]);
    }
  });

  it('reads characters outside the Basic Multilingual Plane and mixed scripts on one line', async () => {
    const { pages } = await extractPdfText(makeTextPdf(['Fee: 每月1200元 😀 café']), LIMITS);

    expect(pages).toEqual(['Fee: 每月1200元 😀 café']);
  });

  it('reads all 50 pages of a long document in order', async () => {
    const expected = manyPagesText(50);
    const result = await extractPdfText(makeManyPagesPdf(50), LIMITS);

    expect(result.pageCount).toBe(50);
    expect(result.pages.map(collapseWhitespace)).toEqual(expected.map(collapseWhitespace));
    expect(result.pages[36]).toContain('Register page 37 of 50.');
  });

  it('leaves the caller’s bytes untouched', async () => {
    const bytes = makeTextPdf(ENGLISH_POLICY_FIXTURE.pages);
    const copy = bytes.slice();

    await extractPdfText(bytes, LIMITS);

    expect(bytes.byteLength).toBe(copy.byteLength);
    expect(bytes).toEqual(copy);
  });

  it('accepts exactly maxPages pages', async () => {
    const result = await extractPdfText(makeManyPagesPdf(5), { maxPages: 5 });

    expect(result.pageCount).toBe(5);
  });

  it('refuses limits that are not a positive integer', async () => {
    const bytes = makeTextPdf(['x']);

    await expect(extractPdfText(bytes, { maxPages: 0 })).rejects.toThrow(RangeError);
    await expect(extractPdfText(bytes, { maxPages: 1.5 })).rejects.toThrow(RangeError);
  });
});

describe('extractPdfText: files it refuses', () => {
  it.each([
    ['an HTML page renamed to .pdf', makeHtmlFile()],
    ['an empty file', new Uint8Array()],
    ['a file shorter than the signature', new TextEncoder().encode('%PD')],
  ])('%s is not_pdf', async (_name, bytes) => {
    const error = await failureOf(extractPdfText(bytes, LIMITS));

    expect(error.reason).toBe('not_pdf');
  });

  it('a signature after a few bytes (as readers allow) is read as a PDF: this one is corrupt', async () => {
    const error = await failureOf(extractPdfText(new TextEncoder().encode(' %PDF-1.4\n'), LIMITS));
    expect(error.reason).toBe('corrupt');
  });

  it('a password-protected PDF is encrypted', async () => {
    const error = await failureOf(extractPdfText(makeEncryptedPdf(), LIMITS));

    expect(error.reason).toBe('encrypted');
    expect(error.message).toBe(describePdfFailure('encrypted'));
  });

  const english = makeTextPdf(ENGLISH_POLICY_FIXTURE.pages);
  it.each([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95])(
    'a PDF truncated at %f of its length is corrupt',
    async (fraction) => {
      const truncated = english.slice(0, Math.floor(english.length * fraction));

      const error = await failureOf(extractPdfText(truncated, LIMITS));

      expect(error.reason).toBe('corrupt');
    },
  );

  it('a PDF that stops right after its header is corrupt', async () => {
    const error = await failureOf(extractPdfText(new TextEncoder().encode('%PDF-1.4\n'), LIMITS));

    expect(error.reason).toBe('corrupt');
  });

  it('random bytes after the PDF signature are corrupt, and the message hides pdf.js', async () => {
    const noise = new Uint8Array(4096);
    let state = 2463534242;
    for (let index = 0; index < noise.length; index++) {
      // xorshift32: deterministic noise
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      noise[index] = state & 0xff;
    }
    const bytes = new Uint8Array([...new TextEncoder().encode('%PDF-1.7\n'), ...noise]);

    const error = await failureOf(extractPdfText(bytes, LIMITS));

    expect(error.reason).toBe('corrupt');
    expect(error.message).toBe(describePdfFailure('corrupt'));
    expect(error.cause).toBeDefined();
  });

  it('a scan (images and drawings only) is no_text', async () => {
    const error = await failureOf(extractPdfText(makeScannedPdf(3), LIMITS));

    expect(error.reason).toBe('no_text');
  });

  it('a PDF whose pages hold only whitespace is no_text', async () => {
    const error = await failureOf(extractPdfText(makeTextPdf(['   ', '\n\n']), LIMITS));

    expect(error.reason).toBe('no_text');
  });

  it('too many pages is refused from the page count, before any page is read', async () => {
    const probe = await getDocumentProxy(makeTextPdf(['probe']));
    const getPage = vi.spyOn(Object.getPrototypeOf(probe), 'getPage');
    await probe.loadingTask.destroy();

    const error = await failureOf(extractPdfText(makeManyPagesPdf(12), { maxPages: 10 }));

    expect(error.reason).toBe('too_many_pages');
    expect(error.pageCount).toBe(12);
    expect(error.maxPages).toBe(10);
    expect(error.message).toContain('12 pages');
    expect(getPage).not.toHaveBeenCalled();
  });
});

describe('describePdfFailure', () => {
  const reasons: PdfFailureReason[] = [
    'not_pdf',
    'encrypted',
    'corrupt',
    'too_many_pages',
    'no_text',
  ];

  it('gives each reason its own sentence', () => {
    const messages = reasons.map((reason) => describePdfFailure(reason));

    expect(new Set(messages).size).toBe(reasons.length);
    for (const message of messages) expect(message).toMatch(/^The (file|PDF) .+\.$/);
  });

  it('names the page count and the limit when it knows them', () => {
    expect(describePdfFailure('too_many_pages', { pageCount: 420, maxPages: 300 })).toBe(
      'The PDF has 420 pages; at most 300 are allowed. Split it into smaller documents.',
    );
  });
});

describe('extraction time (reported, not asserted)', () => {
  beforeAll(async () => {
    // The first extraction in an isolate also loads pdf.js (about a second); keep that out.
    await extractPdfText(makeTextPdf(['warm-up']), LIMITS);
  });

  // Three readings of 200 pages take seconds, more on a busy machine: vitest's 5 s is too short.
  it.each([50, 200])('%i generated pages', { timeout: 60_000 }, async (pageCount) => {
    const bytes = makeManyPagesPdf(pageCount);
    const timings: number[] = [];
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const result = await extractPdfText(bytes, { maxPages: pageCount });
      timings.push(performance.now() - started);
      expect(result.pageCount).toBe(pageCount);
    }
    const [fastest, median] = timings.sort((a, b) => a - b);
    console.log(
      `extractPdfText: ${pageCount} pages (${(bytes.length / 1024).toFixed(0)} KiB): ` +
        `fastest ${fastest?.toFixed(0)} ms, median ${median?.toFixed(0)} ms of 3 runs`,
    );
  });
});
