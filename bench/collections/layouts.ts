// What bench/collections.ts measures on: the same chunks in two layouts, the users of each and
// the questions they ask, with each question's exact nearest neighbours among the chunks its
// user can read (the reference for recall@10).
//   layout A: every file in one collection (no filter removes anything: the baseline);
//   layout B: the same files over 50 collections: one large (40 % of the chunks) and 49 small
//             (2–3 files each), so that a filter after the HNSW scan throws most rows away.
import { embedText } from '../../dev/stack/offline-model/lexical.ts';
import { makeCorpus, makeQuestions, rng, type CorpusChunk } from '../corpus.ts';
import {
  denseUnit,
  embedSparse,
  exactNeighbours,
  toSparse,
  type Sparse,
} from '../index-design/vectors.ts';
import type { Question } from './measure.ts';
import type { LayoutCollection, LayoutData } from './setup.ts';

export const CHUNKS_PER_DOC = 50;
const DIMENSIONS = 1536;
const COLLECTIONS_B = 50;
const LARGE_SHARE = 0.4;

export interface Layout {
  name: 'A' | 'B';
  description: string;
  collections: LayoutCollection[];
  users: { key: string; collections: string[] }[];
}

/** A user of a layout and the questions they ask. */
export interface Case {
  key: string;
  layout: 'A' | 'B';
  user: string;
  description: string;
  visible_chunks: number;
  questions: Question[];
  exact: ReturnType<typeof exactNeighbours>;
}

export interface Workload {
  layouts: Layout[];
  cases: Case[];
  /** The chunks' vectors as exact search reads them (row i is chunk id i + 1). */
  sparse: Sparse[];
  /** What loadLayout inserts: the same chunks whatever the layout. */
  data(layout: Layout): LayoutData;
}

function shuffled<T>(items: T[], seed: number): T[] {
  const random = rng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function makeLayouts(docs: number): Layout[] {
  const all = Array.from({ length: docs }, (_, d) => d);
  const a: LayoutCollection = { id: crypto.randomUUID(), name: 'everything', docs: all };
  // B: a seeded shuffle of the documents, so that no collection is a run of insertion order
  // (which would make it a neighbourhood of the HNSW graph's insertion history).
  const order = shuffled(all, 4_242);
  const largeDocs = Math.round(docs * LARGE_SHARE);
  const large: LayoutCollection = {
    id: crypto.randomUUID(),
    name: 'large',
    docs: order.slice(0, largeDocs).sort((x, y) => x - y),
  };
  const small: LayoutCollection[] = Array.from({ length: COLLECTIONS_B - 1 }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `small-${i + 1}`,
    docs: [],
  }));
  order.slice(largeDocs).forEach((d, i) => small[i % small.length]!.docs.push(d));
  // The measured small collection: one of the smallest that has files (the hardest filter).
  const measuredSmall = small
    .filter((c) => c.docs.length > 0)
    .sort((x, y) => x.docs.length - y.docs.length)[0]!;
  const sizes = small.map((c) => c.docs.length * CHUNKS_PER_DOC);
  return [
    {
      name: 'A',
      description: `all ${docs * CHUNKS_PER_DOC} chunks in 1 collection`,
      collections: [a],
      users: [{ key: 'one', collections: [a.id] }],
    },
    {
      name: 'B',
      description:
        `the same chunks in ${COLLECTIONS_B} collections: 1 large (${largeDocs * CHUNKS_PER_DOC} chunks), ` +
        `${COLLECTIONS_B - 1} small (${Math.min(...sizes)}–${Math.max(...sizes)} chunks)`,
      collections: [large, ...small],
      users: [
        { key: 'large', collections: [large.id] },
        { key: 'small', collections: [measuredSmall.id] },
        { key: 'all', collections: [large.id, ...small.map((c) => c.id)] },
      ],
    },
  ];
}

export function makeWorkload(options: {
  docs: number;
  questions: number;
  queryTerms: (text: string) => string[];
  tsvectorText: (text: string) => string;
}): Workload {
  const { docs } = options;
  const corpus = makeCorpus({ docs, chunksPerDoc: CHUNKS_PER_DOC });
  const chunks = corpus.chunks;
  const sparse = chunks.map((c) => embedSparse(c.content, DIMENSIONS));
  const dense = (i: number) => {
    const out = new Float32Array(DIMENSIONS);
    sparse[i]!.idx.forEach((d, k) => (out[d] = sparse[i]!.raw[k]!));
    return out;
  };
  const terms = chunks.map((c) => options.tsvectorText(c.content));
  const fileIds = Array.from({ length: docs }, () => crypto.randomUUID() as string);
  const layouts = makeLayouts(docs);
  const docOf = (i: number) => chunks[i]!.doc;

  const questionSet = (pool: readonly CorpusChunk[], seed: number): Question[] =>
    makeQuestions(pool, corpus.words, options.questions, seed).map(({ text }) => {
      const vector = embedText(text, DIMENSIONS);
      return {
        text,
        vector,
        unit: denseUnit(toSparse(vector), DIMENSIONS),
        terms: options.queryTerms(text),
      };
    });
  const makeCase = (
    key: string,
    layout: Layout,
    user: string,
    description: string,
    from: 'inside' | 'outside',
    seed: number,
  ): Case => {
    const ids = new Set(layout.users.find((u) => u.key === user)!.collections);
    const docSet = new Set(layout.collections.filter((c) => ids.has(c.id)).flatMap((c) => c.docs));
    const pool = chunks.filter((c) => docSet.has(c.doc) === (from === 'inside'));
    const questions = questionSet(pool, seed);
    return {
      key,
      layout: layout.name,
      user,
      description,
      visible_chunks: docSet.size * CHUNKS_PER_DOC,
      questions,
      exact: exactNeighbours(
        sparse,
        docOf,
        questions.map((q) => q.unit),
        10,
        docSet.size === docs ? undefined : questions.map(() => docSet),
      ),
    };
  };
  const [a, b] = layouts as [Layout, Layout];
  const cases: Case[] = [
    makeCase('A: the 1 collection', a, 'one', 'member of the one collection', 'inside', 11),
    makeCase('B: large (40%)', b, 'large', 'member of the large collection', 'inside', 12),
    makeCase(
      'B: small',
      b,
      'small',
      'member of one small collection; questions about it',
      'inside',
      13,
    ),
    // The worst case for a filter after the index: the nearest chunks are all invisible.
    makeCase(
      'B: small, off-topic',
      b,
      'small',
      'member of one small collection; questions about chunks outside it',
      'outside',
      14,
    ),
    // The same questions as case A: the same visible chunks, 50 collections instead of 1.
    makeCase('B: all 50', b, 'all', 'member of all 50 collections', 'inside', 11),
  ];
  return {
    layouts,
    cases,
    sparse,
    data: (layout) => ({
      collections: layout.collections,
      users: layout.users,
      fileIds,
      chunks,
      values: dense,
      terms,
    }),
  };
}
