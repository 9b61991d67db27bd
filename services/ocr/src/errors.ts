/** The failures the service answers with a 4xx: what is wrong with the request's document. */

/** The PDF cannot be read: not a PDF after all, damaged beyond repair, or encrypted. */
export class PdfUnreadableError extends Error {
  override name = 'PdfUnreadableError';
}

/** `last` is past the document's last page. */
export class PageOutOfRangeError extends Error {
  override name = 'PageOutOfRangeError';
  readonly pageCount: number;
  constructor(pageCount: number) {
    super(
      `The PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}; ask for pages 1 to ${pageCount}.`,
    );
    this.pageCount = pageCount;
  }
}

/** A page has more text boxes than allowed, or took longer than its time budget. */
export class PageTooComplexError extends Error {
  override name = 'PageTooComplexError';
}
