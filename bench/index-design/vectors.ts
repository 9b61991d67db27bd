// The vectors every index variant is measured on: the offline model's lexical embeddings of the
// same chunk texts and questions, at the column's dimensions, and exact nearest neighbours
// computed in JS (the reference for recall).
//
// The offline model hashes tokens into `dimensions − 2` buckets (dev/stack/offline-model/
// lexical.ts), so fewer dimensions are not a truncation of the 1536 vector: more tokens share a
// bucket, and the exact neighbours themselves change a little. Both are reported.
import { embedText } from '../../dev/stack/offline-model/lexical.ts';
import { rng } from '../corpus.ts';

/** A stored vector as its non-zero float32 values, plus the same values scaled to unit length. */
export interface Sparse {
  idx: Int32Array;
  /** The float32 values the database stores. */
  raw: Float32Array;
  /** raw / |raw|, in float64: for exact cosine distances in JS. */
  unit: Float64Array;
}

export function toSparse(values: ArrayLike<number>): Sparse {
  const idx: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const x = Math.fround(values[i]!);
    if (x !== 0) {
      idx.push(i);
      raw.push(x);
    }
  }
  const norm = Math.sqrt(raw.reduce((s, x) => s + x * x, 0)) || 1;
  return {
    idx: Int32Array.from(idx),
    raw: Float32Array.from(raw),
    unit: Float64Array.from(raw, (x) => x / norm),
  };
}

export const embedSparse = (text: string, dimensions: number) =>
  toSparse(embedText(text, dimensions));

/** A dense unit query in float64 (from its float32 values). */
export function denseUnit(v: Sparse, dimensions: number): Float64Array {
  const out = new Float64Array(dimensions);
  v.idx.forEach((i, k) => (out[i] = v.unit[k]!));
  return out;
}

/** Cosine distance between a stored row and a dense unit query. */
export function distance(row: Sparse, query: Float64Array): number {
  let dot = 0;
  for (let k = 0; k < row.idx.length; k++) dot += row.unit[k]! * query[row.idx[k]!]!;
  return 1 - dot;
}

/** The pgvector text literal of a sparse vector, at full width. */
export function sparseLiteral(v: Sparse, dimensions: number): string {
  const parts = new Array<string>(dimensions).fill('0');
  v.idx.forEach((i, k) => (parts[i] = String(v.raw[k])));
  return `[${parts.join(',')}]`;
}

/**
 * Nine significant digits give back the same float32 (JS would print up to 17, which makes the
 * literal ~40 % longer, and parsing 1,536 numbers per row is a real share of an insert's time).
 */
export const denseLiteral = (v: Float32Array) =>
  `[${Array.from(v, (x) => Number(x.toPrecision(9))).join(',')}]`;

/**
 * A random rotation (orthogonal matrix, Gram–Schmidt of a seeded Gaussian matrix). Rotating the
 * lexical vectors keeps every cosine, so the exact neighbours and anything HNSW does with cosine
 * distances stay the same, but makes the vectors dense, as a neural model's are. Binary
 * quantization (the sign of each coordinate) is the one thing here that is not
 * rotation-invariant: on sparse vectors most bits are 0 and the negative weights are lost; on
 * rotated vectors it behaves like random-hyperplane hashing, which is how it treats real
 * embeddings.
 */
export class Rotation {
  readonly rows: Float64Array[];
  readonly dimensions: number;

  constructor(dimensions: number, seed = 90_210) {
    this.dimensions = dimensions;
    const random = rng(seed);
    const gaussian = () => {
      const u = 1 - random();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    };
    this.rows = [];
    for (let r = 0; r < dimensions; r++) {
      const v = Float64Array.from({ length: dimensions }, gaussian);
      // Modified Gram–Schmidt (a Gaussian matrix is well conditioned: one pass is enough for
      // vectors that are stored as float32 anyway).
      for (const q of this.rows) {
        let dot = 0;
        for (let i = 0; i < dimensions; i++) dot += v[i]! * q[i]!;
        for (let i = 0; i < dimensions; i++) v[i] = v[i]! - dot * q[i]!;
      }
      let norm = 0;
      for (let i = 0; i < dimensions; i++) norm += v[i]! * v[i]!;
      norm = Math.sqrt(norm);
      for (let i = 0; i < dimensions; i++) v[i] = v[i]! / norm;
      this.rows.push(v);
    }
  }

  /** Q·x for a sparse x: the sum of the columns of its non-zero coordinates, as float32. */
  apply(v: Sparse): Float32Array {
    const out = new Float64Array(this.dimensions);
    for (let r = 0; r < this.dimensions; r++) {
      const row = this.rows[r]!;
      let s = 0;
      for (let k = 0; k < v.idx.length; k++) s += row[v.idx[k]!]! * v.raw[k]!;
      out[r] = s;
    }
    return Float32Array.from(out);
  }
}

export interface Neighbour {
  /** 1-based chunk id (row i of the base set is id i + 1). */
  id: number;
  distance: number;
}

/**
 * The exact `k + 1` nearest base rows of each query (distance, then id, as the service orders),
 * optionally only among rows of the allowed documents.
 */
export function exactNeighbours(
  rows: readonly Sparse[],
  docOf: (row: number) => number,
  queries: readonly Float64Array[],
  k: number,
  allowedDocs?: readonly (ReadonlySet<number> | undefined)[],
): Neighbour[][] {
  return queries.map((q, qi) => {
    const allowed = allowedDocs?.[qi];
    const best: Neighbour[] = [];
    for (let i = 0; i < rows.length; i++) {
      if (allowed && !allowed.has(docOf(i))) continue;
      const d = distance(rows[i]!, q);
      if (best.length > k && d > best[best.length - 1]!.distance) continue;
      best.push({ id: i + 1, distance: d });
      best.sort((a, b) => a.distance - b.distance || a.id - b.id);
      if (best.length > k + 1) best.pop();
    }
    return best;
  });
}
