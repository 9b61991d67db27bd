// Bulk load of the base rows with COPY … (FORMAT binary): PGlite spends ~10 ms per row taking
// in the ~18 KB text literal of a dense 1,536-number vector, which would make loading 100,000
// rotated (dense) rows take a quarter of an hour. Binary COPY hands it the float32 values as
// they are (pgvector's vector_recv). Only the bulk load uses it: the measured inserts keep the
// service's text statements.
import type { PGlite } from '@electric-sql/pglite';

export interface BinaryChunkRow {
  id: number;
  fileId: string;
  page: number;
  index: number;
  content: string;
  embedding: Float32Array;
}

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
const encoder = new TextEncoder();

/** PGCOPY binary: header, one tuple per row (length-prefixed big-endian fields), trailer. */
export function binaryCopyData(rows: readonly BinaryChunkRow[]): Uint8Array {
  const texts = rows.map((r) => encoder.encode(r.content));
  let size = SIGNATURE.length + 8 + 2;
  rows.forEach((r, i) => {
    size += 2 + (4 + 8) + (4 + 16) + (4 + 4) * 2 + (4 + texts[i]!.length);
    size += 4 + 4 + 4 * r.embedding.length;
  });
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  out.set(SIGNATURE, 0);
  at += SIGNATURE.length + 8; // flags and header extension length: 0
  rows.forEach((r, i) => {
    view.setInt16(at, 6);
    at += 2;
    view.setInt32(at, 8);
    view.setBigInt64(at + 4, BigInt(r.id));
    at += 12;
    view.setInt32(at, 16);
    const hex = r.fileId.replaceAll('-', '');
    for (let b = 0; b < 16; b++) out[at + 4 + b] = parseInt(hex.slice(b * 2, b * 2 + 2), 16);
    at += 20;
    for (const n of [r.page, r.index]) {
      view.setInt32(at, 4);
      view.setInt32(at + 4, n);
      at += 8;
    }
    view.setInt32(at, texts[i]!.length);
    out.set(texts[i]!, at + 4);
    at += 4 + texts[i]!.length;
    // vector_recv: int16 dimensions, int16 unused, then the float4 values.
    view.setInt32(at, 4 + 4 * r.embedding.length);
    view.setInt16(at + 4, r.embedding.length);
    view.setInt16(at + 6, 0);
    at += 8;
    for (const x of r.embedding) {
      view.setFloat32(at, x);
      at += 4;
    }
  });
  view.setInt16(at, -1);
  return out;
}

export async function copyChunks(pg: PGlite, rows: readonly BinaryChunkRow[]): Promise<void> {
  const data = binaryCopyData(rows);
  await pg.query(
    `COPY chunks (id, file_id, page, index, content, embedding) FROM '/dev/blob' WITH (FORMAT binary)`,
    [],
    { blob: new Blob([data]) },
  );
}
