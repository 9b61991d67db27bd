/**
 * The name a client gave its upload, made safe to DISPLAY: in lists, in the chat's sources and
 * in Content-Disposition (which shared/service/file-download.ts encodes further).
 *
 * It is never a path or a storage key: files are stored under ids the service generates, so
 * nothing here has to defend a file system. What it defends is the reader: no directories that
 * look like real paths, no control characters, no bidi overrides (U+202E would make
 * `invoice\u202Efdp.exe` display as `invoiceexe.pdf`), no hidden-file dots, and a bounded
 * length.
 */

export const FALLBACK_FILE_NAME = 'document.pdf';
export const MAX_FILE_NAME_LENGTH = 200;

const PDF_EXTENSION = '.pdf';

// Explicit directional formatting characters (embeddings, overrides, isolates) and the
// implicit marks; letters keep their own direction without them.
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
// C0 and C1 controls including NUL, plus lone surrogates (not text, and break UTF-8 encoding).
const CONTROLS = /[\p{Cc}\p{Cs}]/gu;

export function sanitiseFileName(name: string | undefined): string {
  const base = stripDirectories(name ?? '');
  const cleaned = base
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .replace(CONTROLS, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/ {2,}/g, ' ')
    .replace(/^[. ]+/, '')
    .replace(/[. ]+$/, '');
  if (cleaned === '') return FALLBACK_FILE_NAME;
  return limitLength(withPdfExtension(cleaned));
}

/** The last path segment, for both POSIX and Windows separators. */
function stripDirectories(name: string): string {
  return name.split(/[/\\]/).pop() ?? '';
}

function withPdfExtension(name: string): string {
  return name.toLowerCase().endsWith(PDF_EXTENSION) ? name : `${name}${PDF_EXTENSION}`;
}

/**
 * At most MAX_FILE_NAME_LENGTH code points, cutting the stem (never the extension) at a
 * grapheme boundary so that no accent or emoji is left half.
 */
function limitLength(name: string): string {
  if ([...name].length <= MAX_FILE_NAME_LENGTH) return name;
  const extension = name.slice(-PDF_EXTENSION.length);
  const stem = name.slice(0, -PDF_EXTENSION.length);
  const budget = MAX_FILE_NAME_LENGTH - PDF_EXTENSION.length;
  let kept = '';
  let keptLength = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(
    stem,
  )) {
    const segmentLength = [...segment].length;
    if (keptLength + segmentLength > budget) break;
    kept += segment;
    keptLength += segmentLength;
  }
  return `${kept.replace(/[. ]+$/, '')}${extension}`;
}
