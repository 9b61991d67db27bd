import type { FileFormat } from '../db/schema';

/**
 * What an upload is, from its bytes — never from its name or the client's Content-Type, which
 * say what the sender claims. Unknown or binary content is refused (415) before anything is
 * stored.
 */
export interface DetectedFormat {
  format: FileFormat;
  contentType: string;
  /** For text formats: how the bytes decode (UTF-8, or GB18030 for Chinese text files). */
  encoding?: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';
}

const CONTENT_TYPES: Record<FileFormat, string> = {
  pdf: 'application/pdf',
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export const contentTypeOf = (format: FileFormat) => CONTENT_TYPES[format];

const PDF = [0x25, 0x50, 0x44, 0x46]; // %PDF (the dash after it is not always there)
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4
/** How much of a text file is looked at to tell its kind. */
const SNIFF_BYTES = 64 * 1024;

export function detectFormat(bytes: Uint8Array): DetectedFormat | undefined {
  if (isPdf(bytes)) return of('pdf');
  if (startsWith(bytes, ZIP)) return isWordDocument(bytes) ? of('docx') : undefined;
  const encoding = textEncodingOf(bytes);
  if (!encoding) return undefined;
  const head = decodeText(bytes.subarray(0, SNIFF_BYTES), encoding, { partial: true });
  if (isDataNotDocument(head)) return undefined;
  if (looksLikeHtml(head)) return { ...of('html'), encoding };
  if (looksLikeMarkdown(head)) return { ...of('markdown'), encoding };
  return { ...of('text'), encoding };
}

const of = (format: FileFormat): DetectedFormat => ({ format, contentType: CONTENT_TYPES[format] });

/**
 * A PDF starts with `%PDF-`; readers also accept a missing dash and a few bytes before it (a byte-order mark,
 * spaces: the specification's "within the first 1024 bytes"), and so does pdf.js.
 */
function isPdf(bytes: Uint8Array): boolean {
  const at = indexOf(bytes.subarray(0, 1024), Uint8Array.from(PDF));
  // Only blank bytes or a byte-order mark before it: "%PDF" inside a JSON or text document is
  // text, not a signature.
  return at >= 0 && bytes.subarray(0, at).every((byte) => byte <= 0x20 || byte >= 0xbb);
}

/**
 * Text that is data or a program, not a document to read: JSON, XML and SVG, PostScript, RTF.
 * Indexing its source would only put noise into the knowledge base.
 */
function isDataNotDocument(head: string): boolean {
  const start = head.replace(/^\uFEFF/, '').trimStart();
  if (/^(%!PS|\{\\rtf)/.test(start)) return true;
  if (/^<\?xml|^<svg[\s>]/i.test(start) && !/<html[\s>]/i.test(start.slice(0, 2048))) return true;
  if (/^[[{]/.test(start)) {
    try {
      JSON.parse(head);
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}

/** A Word document is a ZIP holding `word/document.xml` (its name is stored uncompressed). */
function isWordDocument(bytes: Uint8Array): boolean {
  return indexOf(bytes, new TextEncoder().encode('word/document.xml')) >= 0;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Text if the bytes decode without error and hold no NUL or other binary control bytes:
 * UTF-8 (with or without a BOM), UTF-16 with a BOM, or else GB18030 — the encoding Chinese
 * text files written on Windows are most often in.
 */
function textEncodingOf(bytes: Uint8Array): DetectedFormat['encoding'] | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (hasBinaryBytes(head)) return undefined;
  for (const encoding of ['utf-8', 'gb18030'] as const) {
    try {
      decodeText(head, encoding, { partial: head.length < bytes.length });
      return encoding;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** NUL and C0 controls other than tab, line feed, form feed, carriage return and escape. */
function hasBinaryBytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(byte)) return true;
  }
  return false;
}

/** Decodes strictly: invalid bytes throw rather than turn into U+FFFD. */
export function decodeText(
  bytes: Uint8Array,
  encoding: NonNullable<DetectedFormat['encoding']>,
  options: { partial?: boolean } = {},
): string {
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: false });
  return decoder.decode(bytes, { stream: options.partial === true });
}

function looksLikeHtml(head: string): boolean {
  const start = head
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
    .toLowerCase();
  return /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<!--[\s\S]*?-->\s*<(html|!doctype))/.test(
    start,
  );
}

/**
 * Markdown when the text uses its block syntax: ATX headings, or at least two of lists,
 * fenced code, block quotes, links and tables. Plain prose with a dash list stays text.
 */
function looksLikeMarkdown(head: string): boolean {
  if (/^#{1,6}\s+\S/m.test(head)) return true;
  const signs = [
    /^\s{0,3}[-*+]\s+\S/m,
    /^\s{0,3}\d{1,3}[.)]\s+\S/m,
    /^\s{0,3}(```|~~~)/m,
    /^\s{0,3}>\s/m,
    /\[[^\]\n]+\]\([^)\s]+\)/,
    /^\|.+\|\s*$\n^\|?\s*:?-{3,}/m,
  ];
  return signs.filter((sign) => sign.test(head)).length >= 2;
}
