/**
 * The name a client gave its upload, made safe to DISPLAY: in lists, in the chat's sources and
 * in Content-Disposition (which shared/service/file-download.ts encodes further).
 *
 * It is never a path or a storage key: files are stored under ids the service generates, so
 * nothing here has to defend a file system. What it defends is the reader: no directories that
 * look like real paths, no control characters, no bidi overrides (U+202E would make
 * `invoice\u202Efdp.exe` display as `invoiceexe.pdf`), no hidden-file dots, an extension that
 * says what the file is (detected from its bytes), and a bounded length.
 */
import type { FileFormat } from '../db/schema';

export const FALLBACK_FILE_NAME = 'document.pdf';
export const MAX_FILE_NAME_LENGTH = 200;

/** The extensions a name may end with for each format; the first is added when none does. */
const EXTENSIONS: Record<FileFormat, readonly string[]> = {
  pdf: ['.pdf'],
  docx: ['.docx'],
  html: ['.html', '.htm'],
  markdown: ['.md', '.markdown'],
  text: ['.txt', '.text'],
};

// Explicit directional formatting characters (embeddings, overrides, isolates) and the
// implicit marks; letters keep their own direction without them.
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
// C0 and C1 controls including NUL, plus lone surrogates (not text, and break UTF-8 encoding).
const CONTROLS = /[\p{Cc}\p{Cs}]/gu;

export function sanitiseFileName(name: string | undefined, format: FileFormat = 'pdf'): string {
  const base = stripDirectories(name ?? '');
  const cleaned = base
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .replace(CONTROLS, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/ {2,}/g, ' ')
    .replace(/^[. ]+/, '')
    .replace(/[. ]+$/, '');
  const extensions = EXTENSIONS[format];
  if (cleaned === '') return `document${extensions[0]}`;
  const named = extensions.some((ext) => cleaned.toLowerCase().endsWith(ext))
    ? cleaned
    : `${cleaned}${extensions[0]}`;
  return limitLength(named);
}

/** The last path segment, for both POSIX and Windows separators. */
function stripDirectories(name: string): string {
  return name.split(/[/\\]/).pop() ?? '';
}

/**
 * At most MAX_FILE_NAME_LENGTH code points, cutting the stem (never the extension) at a
 * grapheme boundary so that no accent or emoji is left half.
 */
function limitLength(name: string): string {
  if ([...name].length <= MAX_FILE_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const extension = name.slice(dot);
  const stem = name.slice(0, dot);
  const budget = MAX_FILE_NAME_LENGTH - extension.length;
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
