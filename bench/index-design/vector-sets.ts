// One set of vectors per (space, dimensions): the chunks' and questions' embeddings, their
// literals for SQL, and the exact neighbours every variant on that set is scored against.
import type { CorpusChunk } from '../corpus.ts';
import {
  Rotation,
  denseLiteral,
  denseUnit,
  embedSparse,
  exactNeighbours,
  sparseLiteral,
  type Neighbour,
  type Sparse,
} from './vectors.ts';
import { TOP, type VectorSpace } from './variants.ts';

export interface Workload {
  /** Base rows first (ids 1…base), then the rows the insert measurements add. */
  chunks: CorpusChunk[];
  base: number;
  questions: { text: string; source: number }[];
  /** Per filtered question: the documents it is limited to (its source's and two others). */
  filterDocs: Set<number>[];
}

export interface VectorSet {
  key: string;
  space: VectorSpace;
  dimensions: number;
  /** Lexical vectors of all chunks (a rotation keeps their distances): the exact reference. */
  rows: Sparse[];
  /** The literal stored for chunk row i (0-based), and the same as float32 values. */
  literal(i: number): string;
  values(i: number): Float32Array;
  queryLiterals: string[];
  /** Exact top TOP + 1 per question (unfiltered), and per filtered question. */
  exact: Neighbour[][];
  exactFiltered: Neighbour[][];
  /** Unit query vectors (lexical) for distances in JS. */
  queries: Float64Array[];
}

const cache = new Map<string, VectorSet>();
let rotation: Rotation | undefined;

export function vectorSet(workload: Workload, space: VectorSpace, dimensions: number): VectorSet {
  const key = `${space} ${dimensions}`;
  const cached = cache.get(key);
  if (cached) return cached;
  // The rotated set shares the lexical set's vectors and exact neighbours.
  const lexical = space === 'lexical' ? undefined : vectorSet(workload, 'lexical', dimensions);
  const rows = lexical?.rows ?? workload.chunks.map((c) => embedSparse(c.content, dimensions));
  const querySparse = workload.questions.map((q) => embedSparse(q.text, dimensions));
  const queries = lexical?.queries ?? querySparse.map((q) => denseUnit(q, dimensions));
  const baseRows = rows.slice(0, workload.base);
  const docOf = (i: number) => workload.chunks[i]!.doc;
  const exact = lexical?.exact ?? exactNeighbours(baseRows, docOf, queries, TOP);
  const exactFiltered =
    lexical?.exactFiltered ??
    exactNeighbours(
      baseRows,
      docOf,
      queries.slice(0, workload.filterDocs.length),
      TOP,
      workload.filterDocs,
    );
  let literal: (i: number) => string;
  let values: (i: number) => Float32Array;
  let queryLiterals: string[];
  if (space === 'rotated') {
    rotation ??= new Rotation(dimensions);
    const r = rotation;
    values = (i) => r.apply(rows[i]!);
    literal = (i) => denseLiteral(values(i));
    queryLiterals = querySparse.map((q) => denseLiteral(r.apply(q)));
  } else {
    values = (i) => {
      const out = new Float32Array(dimensions);
      rows[i]!.idx.forEach((d, k) => (out[d] = rows[i]!.raw[k]!));
      return out;
    };
    literal = (i) => sparseLiteral(rows[i]!, dimensions);
    queryLiterals = querySparse.map((q) => sparseLiteral(q, dimensions));
  }
  const set = {
    key,
    space,
    dimensions,
    rows,
    literal,
    values,
    queryLiterals,
    exact,
    exactFiltered,
    queries,
  };
  cache.set(key, set);
  return set;
}
