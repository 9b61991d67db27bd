/**
 * The original bytes of each file live in object storage (an R2 bucket), keyed by the file
 * id: never by anything the client sent.
 */
export async function putOriginal(
  bucket: R2Bucket,
  id: string,
  bytes: Uint8Array,
  sha256: string,
  contentType: string,
) {
  await bucket.put(id, bytes, { httpMetadata: { contentType }, sha256 });
}

export async function deleteOriginal(bucket: R2Bucket, id: string) {
  await bucket.delete(id);
}

/** The original, or only `range` of its bytes (`end` inclusive). */
export function getOriginal(bucket: R2Bucket, id: string, range?: { start: number; end: number }) {
  return range
    ? bucket.get(id, { range: { offset: range.start, length: range.end - range.start + 1 } })
    : bucket.get(id);
}
