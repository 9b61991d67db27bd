/**
 * SHA-256 of an upload as lowercase hex, to recognise a file uploaded twice. Hash the bytes
 * before handing them to anything that may take ownership of their buffer (pdf.js does).
 */
export async function sha256Hex(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
