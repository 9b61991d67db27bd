import type { FileFormat } from '../db/schema';
import { describe, DocumentError } from './document-error';

/**
 * What an upload is, from its bytes — never from its name or the client's Content-Type, which
 * say what the sender claims. Unknown or binary content is refused (415) before anything is
 * stored; text that does not decode is refused as such (422 `document_bad_encoding`).
 */
export interface DetectedFormat {
  format: FileFormat;
  contentType: string;
  /** For text formats: how the bytes decode (UTF-8, or GB18030 for Chinese text files). */
  encoding?: TextEncoding;
}

type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';

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

/**
 * The format of a document from its first bytes. Throws a {@link DocumentError}
 * (`bad_encoding`) for text whose first bytes decode in none of the encodings it may be in;
 * bad bytes further on are found when the whole text is decoded (document-sections.ts).
 */
export function detectFormat(bytes: Uint8Array): DetectedFormat | undefined {
  if (isPdf(bytes)) return of('pdf');
  if (startsWith(bytes, ZIP)) return isWordDocument(bytes) ? of('docx') : undefined;
  const text = textHeadOf(bytes);
  if (!text) return undefined;
  if (isDataNotDocument(text.head)) return undefined;
  const format = looksLikeHtml(text.head)
    ? 'html'
    : looksLikeMarkdown(text.head)
      ? 'markdown'
      : 'text';
  if (!text.encoding) {
    throw new DocumentError('bad_encoding', format, describe('bad_encoding', format, 0));
  }
  return { ...of(format), encoding: text.encoding };
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

/** The first bytes of a text file, decoded; without an encoding when none decodes them. */
interface TextHead {
  head: string;
  encoding?: TextEncoding;
}

/**
 * Text if the bytes hold no NUL or other binary control bytes, or start with a UTF-16
 * byte-order mark. Its encoding is the one a byte-order mark declares (UTF-8 or UTF-16), or
 * else UTF-8 or GB18030 — the encoding Chinese text files written on Windows are most often
 * in — whichever decodes the first bytes. When none does, the head is decoded leniently, only
 * to tell what the text was meant to be.
 */
function textHeadOf(bytes: Uint8Array): TextHead | undefined {
  const declared = declaredEncoding(bytes);
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (!declared?.startsWith('utf-16') && hasBinaryBytes(head)) return undefined;
  // Only the whole file may not end in the middle of a character.
  const partial = head.length < bytes.length;
  for (const encoding of declared ? [declared] : (['utf-8', 'gb18030'] as const)) {
    try {
      return { head: decodeText(head, encoding, { partial }), encoding };
    } catch {
      // not this one
    }
  }
  return { head: new TextDecoder(declared ?? 'utf-8').decode(head, { stream: partial }) };
}

/** The encoding a byte-order mark declares: bytes that follow it are in it, or are not text. */
function declaredEncoding(bytes: Uint8Array): TextEncoding | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
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
  encoding: TextEncoding,
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
