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
  return {
    'Content-Type': file.contentType,
    'Content-Disposition': contentDisposition(file.filename, file.disposition),
    'X-Content-Type-Options': 'nosniff',
    ...(file.size !== undefined ? { 'Content-Length': String(file.size) } : {}),
  };
}

/** A complete download response, for handlers outside mountService. */
export function fileDownloadResponse(file: FileDownload): Response {
  return new Response(file.body, { status: 200, headers: fileDownloadHeaders(file) });
}
