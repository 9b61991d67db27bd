/**
 * File download (spec 4.2 rule 4: "A file download uses a pointer to an OS file as the single
 * return parameter"). A method declared with `output: fileDownload()` returns a
 * {@link FileDownload}; the route answers with the bytes and a safe Content-Disposition.
 */

export interface FileDownloadSpec {
  readonly kind: 'fileDownload';
  /** Media types the method may answer with, for the OpenAPI document. */
  readonly contentTypes: readonly string[];
}

export function fileDownload(options: { contentTypes?: readonly string[] } = {}): FileDownloadSpec {
  const contentTypes = options.contentTypes ?? ['application/octet-stream'];
  if (contentTypes.length === 0) throw new Error('fileDownload: list at least one content type');
  return { kind: 'fileDownload', contentTypes };
}

export function isFileDownloadSpec(value: unknown): value is FileDownloadSpec {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'fileDownload'
  );
}

/** What a file-download method returns. */
export interface FileDownload {
  body: ReadableStream<Uint8Array> | ArrayBuffer | Uint8Array | Blob | string;
  contentType: string;
  /** Shown to the user as the saved file's name; any text, it is made safe for the header. */
  filename: string;
  /** Byte length, sent as Content-Length when known. */
  size?: number;
  /** `attachment` (default) saves the file; `inline` lets the browser show it. */
  disposition?: 'attachment' | 'inline';
  /**
   * The method answers Range requests (see {@link parseByteRange}): full answers say
   * `Accept-Ranges: bytes`, so a client such as PDF.js knows it may fetch parts of the file.
   */
  acceptRanges?: boolean;
  /**
   * `body` is only this part of the file, offsets in bytes, `end` inclusive: a 206 answer with
   * Content-Range. `size` is then the part's length.
   */
  range?: { start: number; end: number; total: number };
  /** The range asked for lies outside the file (of `total` bytes): a 416 answer, no body. */
  unsatisfiable?: { total: number };
}

/** A byte range of a file: offsets, `end` inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A Range header (RFC 9110 §14) against a file of `total` bytes: the one range it asks for,
 * `unsatisfiable` when that range lies outside the file, or undefined when the whole file is
 * the answer: no header, another unit, a malformed header (which RFC 9110 says to ignore) or
 * several ranges (allowed to be answered whole; no client here needs multipart answers).
 */
export function parseByteRange(
  header: string | null | undefined,
  total: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix: the last `last` bytes.
    const length = Number(last);
    if (length === 0 || total === 0) return 'unsatisfiable';
    return { start: Math.max(0, total - length), end: total - 1 };
  }
  const start = Number(first);
  // A last position before the first is malformed; one past the file's end means its end.
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= total) return 'unsatisfiable';
  return { start, end: last === '' ? total - 1 : Math.min(Number(last), total - 1) };
}

/** The status of a download answer: 200, 206 for a part, 416 for a range outside the file. */
export function fileDownloadStatus(file: FileDownload): 200 | 206 | 416 {
  if (file.unsatisfiable) return 416;
  return file.range ? 206 : 200;
}

/** What the client gets back from a file-download method. */
export interface DownloadedFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  filename: string | undefined;
  size: number | undefined;
}

const NON_ASCII = /[^\u0020-\u007e]/g;

// Control characters, quotes and backslashes would break the quoted string; slashes would let a
// careless client write outside its download folder.
function isSafeInName(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code >= 0x20 && code !== 0x7f && char !== '"' && char !== '\\' && char !== '/';
}

/**
 * RFC 6266 Content-Disposition: an ASCII `filename` for old clients (non-ASCII characters become
 * `_`; quotes, backslashes, slashes and control characters are removed) and `filename*` with
 * the full name in UTF-8 (RFC 8187) for the rest.
 */
export function contentDisposition(
  filename: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const cleaned = [...filename].filter(isSafeInName).join('').trim();
  const fallback = cleaned.replace(NON_ASCII, '_') || 'download';
  const full = cleaned || 'download';
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(full)}`;
}

function encodeRfc8187(value: string): string {
  // encodeURIComponent leaves !'()* unescaped; RFC 8187 attr-char does not allow '()*.
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => '%' + char.charCodeAt(0).toString(16).toUpperCase(),
  );
}

/** The file name a Content-Disposition header carries, preferring `filename*`. */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header)?.[1];
  if (extended !== undefined) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A broken encoding falls back to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  if (quoted !== undefined) return quoted.replace(/\\(.)/g, '$1');
  return /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
}

/** The headers of a download answer. */
export function fileDownloadHeaders(file: FileDownload): Record<string, string> {
  const ranges = file.acceptRanges || file.range || file.unsatisfiable;
  if (file.unsatisfiable) {
    return {
      'Content-Range': `bytes */${file.unsatisfiable.total}`,
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
    };
  }
  return {
    'Content-Type': file.contentType,
    'Content-Disposition': contentDisposition(file.filename, file.disposition),
    'X-Content-Type-Options': 'nosniff',
    ...(ranges ? { 'Accept-Ranges': 'bytes' } : {}),
    ...(file.range
      ? { 'Content-Range': `bytes ${file.range.start}-${file.range.end}/${file.range.total}` }
      : {}),
    ...(file.size !== undefined ? { 'Content-Length': String(file.size) } : {}),
  };
}

/** A complete download response, for handlers outside mountService. */
export function fileDownloadResponse(file: FileDownload): Response {
  const status = fileDownloadStatus(file);
  return new Response(status === 416 ? null : file.body, {
    status,
    headers: fileDownloadHeaders(file),
  });
}
