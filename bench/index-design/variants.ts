// The index designs under test: the chunks column, its index DDL and the query statement each
// would serve, written out in full so that the recommended one can be copied into a migration
// and into nearestChunksQuery as it is.
//
// Every statement keeps the service's shape (workers/knowledge/src/store/files.ts): an inner
// `ORDER BY <distance> LIMIT` that the index serves, the similarity in the select list, the
// optional file filter inside (iterative scans keep going until enough rows pass it), the join
// to files outside, ordered by distance then id. $1 is the query vector's literal, $2 the file
// ids (uuid[]) when filtered.

export const TOP = 10;

export type VectorSpace = 'lexical' | 'rotated';

export interface QuerySetting {
  label: string;
  /** hnsw.ef_search for the statement. */
  efSearch: number;
  /** Re-ranked designs: how many candidates the index hands to the exact re-ranking. */
  candidates?: number;
  /** IVFFlat designs: ivfflat.probes, the lists a query scans. */
  probes?: number;
}

export interface Variant {
  name: string;
  summary: string;
  dimensions: number;
  /** 'rotated': the same vectors under a random rotation (dense; see vectors.ts). */
  space: VectorSpace;
  /** The type of chunks.embedding. */
  column: string;
  index?: { name: string; ddl: string };
  settings: QuerySetting[];
  statement(setting: QuerySetting, filtered: boolean): string;
  /** 'full': every batch size and order; 'short': batches of 100, both orders (slow builds). */
  inserts: 'full' | 'short';
}

const outer = (inner: string) =>
  `select c.id, 1 - c.distance as similarity, c.content, c.file_id, f.name as file_name, c.page
from (
  ${inner}
) c
join files f on f.id = c.file_id
order by c.distance, c.id`;

const fileFilter = (filtered: boolean) => (filtered ? 'where file_id = any($2::uuid[])' : '');

/** The service's statement today, with `expr <=> query` as the index's distance. */
function nearest(expr: string, query: string, filtered: boolean): string {
  return outer(`select id, file_id, page, content, ${expr} <=> ${query} as distance
  from chunks
  ${fileFilter(filtered)}
  order by ${expr} <=> ${query}
  limit ${TOP}`);
}

/** The index picks `candidates` rows by an approximate order; exact cosine picks the top. */
function reranked(candidateOrder: string, candidates: number, filtered: boolean): string {
  return outer(`select id, file_id, page, content, embedding <=> $1::vector as distance
  from (
    select id, file_id, page, content, embedding
    from chunks
    ${fileFilter(filtered)}
    order by ${candidateOrder}
    limit ${candidates}
  ) candidates
  order by distance, id
  limit ${TOP}`);
}

const efSweep = (values: number[]): QuerySetting[] =>
  values.map((ef) => ({ label: `ef ${ef}`, efSearch: ef }));

/** ef_search is the candidate list: at least K, or the index stops short of K rows. */
const candidateSweep = (values: number[]): QuerySetting[] =>
  values.map((k) => ({
    label: `K ${k}`,
    efSearch: Math.min(1000, Math.max(40, k)),
    candidates: k,
  }));

const EF = [40, 100, 200, 400, 500, 600, 700, 800, 1000];
const K = [40, 100, 200, 400, 600, 800, 1000];

function plainVector(dimensions: number, inserts: Variant['inserts']): Variant {
  const index = `chunks_embedding_${dimensions}_hnsw_idx`;
  return {
    name: `vector-${dimensions}`,
    summary:
      dimensions === 1536
        ? "today's design: vector(1536), HNSW vector_cosine_ops (m 16, ef_construction 64)"
        : `vector(${dimensions}) column (the model asked for ${dimensions} dimensions), HNSW cosine`,
    dimensions,
    space: 'lexical',
    column: `vector(${dimensions})`,
    index: {
      name: index,
      ddl: `CREATE INDEX ${index} ON chunks USING hnsw (embedding vector_cosine_ops)`,
    },
    settings: efSweep(EF),
    statement: (_s, filtered) => nearest('embedding', '$1::vector', filtered),
    inserts,
  };
}

/**
 * Today's column with other HNSW build parameters: does a denser graph (m) or a harder build
 * (ef_construction) reach recall@10 ≥ 0.99 at a smaller ef_search, and what do inserts pay?
 */
function tunedHnsw(m: number, efConstruction: number, why: string, ef: number[]): Variant {
  const tag = m === 16 ? `efc${efConstruction}` : `m${m}`;
  const index = `chunks_embedding_${tag}_hnsw_idx`;
  return {
    ...plainVector(1536, 'short'),
    name: `vector-1536-${tag}`,
    summary: `vector(1536), HNSW with m ${m}, ef_construction ${efConstruction} (${why})`,
    settings: efSweep(ef),
    index: {
      name: index,
      ddl: `CREATE INDEX ${index} ON chunks USING hnsw (embedding vector_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})`,
    },
  };
}

function binaryQuantized(space: VectorSpace): Variant {
  const index = `chunks_embedding_bq_${space}_hnsw_idx`;
  return {
    name: space === 'lexical' ? 'bq-1536' : 'bq-1536-rotated',
    summary:
      'vector(1536) column; HNSW on binary_quantize(embedding)::bit(1536) (hamming), ' +
      'top K candidates re-ranked by exact cosine in the same statement' +
      (space === 'rotated' ? ' — on the rotated (dense) vectors' : ''),
    dimensions: 1536,
    space,
    column: 'vector(1536)',
    index: {
      name: index,
      ddl: `CREATE INDEX ${index} ON chunks USING hnsw ((binary_quantize(embedding)::bit(1536)) bit_hamming_ops)`,
    },
    settings: candidateSweep(K),
    statement: (s, filtered) =>
      reranked(
        'binary_quantize(embedding)::bit(1536) <~> binary_quantize($1::vector)',
        s.candidates!,
        filtered,
      ),
    inserts: 'full',
  };
}

/**
 * Matryoshka-style: the column keeps 1536 dimensions, the index holds the first 512 and the
 * top K candidates are re-ranked by the full vector. text-embedding-3 models are trained so
 * that a prefix is itself an embedding; the offline model's vectors are not (their first 512
 * coordinates are a third of the hash buckets), so this is measured on the rotated vectors,
 * whose prefix is a random projection: a pessimistic stand-in for a trained prefix.
 */
function subvectorReranked(): Variant {
  const index = 'chunks_embedding_prefix512_hnsw_idx';
  const prefix = (v: string) => `subvector(${v}, 1, 512)::vector(512)`;
  return {
    name: 'subvector-512-rotated',
    summary:
      'vector(1536) column; HNSW on its first 512 dimensions, top K re-ranked by the full ' +
      'vector — on the rotated (dense) vectors',
    dimensions: 1536,
    space: 'rotated',
    column: 'vector(1536)',
    index: {
      name: index,
      ddl: `CREATE INDEX ${index} ON chunks USING hnsw ((${prefix('embedding')}) vector_cosine_ops)`,
    },
    settings: candidateSweep(K),
    statement: (s, filtered) =>
      reranked(`${prefix('embedding')} <=> ${prefix('$1::vector')}`, s.candidates!, filtered),
    inserts: 'full',
  };
}

/**
 * IVFFlat: k-means lists built from the rows present at build time; a query scans the
 * `probes` nearest lists exactly. Inserts only find their nearest list (no graph to repair).
 */
function ivfflat(lists: number, probes: number[]): Variant {
  const index = `chunks_embedding_ivf${lists}_idx`;
  return {
    name: `ivfflat-${lists}`,
    summary: `vector(1536), IVFFlat vector_cosine_ops with ${lists} lists, probes swept`,
    dimensions: 1536,
    space: 'lexical',
    column: 'vector(1536)',
    index: {
      name: index,
      ddl: `CREATE INDEX ${index} ON chunks USING ivfflat (embedding vector_cosine_ops) WITH (lists = ${lists})`,
    },
    settings: probes.map((p) => ({ label: `probes ${p}`, efSearch: 40, probes: p })),
    statement: (_s, filtered) => nearest('embedding', '$1::vector', filtered),
    inserts: 'full',
  };
}

export const VARIANTS: Variant[] = [
  {
    name: 'exact',
    summary: 'no vector index: every query scans and sorts all chunks (the reference)',
    dimensions: 1536,
    space: 'lexical',
    column: 'vector(1536)',
    settings: [{ label: 'scan', efSearch: 40 }],
    statement: (_s, filtered) => nearest('embedding', '$1::vector', filtered),
    inserts: 'full',
  },
  {
    name: 'exact-rotated',
    summary:
      'no vector index, rotated (dense) vectors: what a dense vector costs to insert without ' +
      'any index (its 1,536 numbers are parsed from text)',
    dimensions: 1536,
    space: 'rotated',
    column: 'vector(1536)',
    settings: [{ label: 'scan', efSearch: 40 }],
    statement: (_s, filtered) => nearest('embedding', '$1::vector', filtered),
    inserts: 'full',
  },
  plainVector(1536, 'full'),
  {
    ...plainVector(1536, 'full'),
    name: 'vector-1536-efc32',
    summary: 'vector(1536), HNSW with ef_construction 32 (half the default build-time search)',
    index: {
      name: 'chunks_embedding_efc32_hnsw_idx',
      ddl: 'CREATE INDEX chunks_embedding_efc32_hnsw_idx ON chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 32)',
    },
  },
  tunedHnsw(32, 128, 'a denser graph, built harder', [40, 100, 200, 300, 400]),
  tunedHnsw(16, 128, 'the same graph degree, built harder', [100, 200, 300, 400]),
  tunedHnsw(16, 256, 'the same graph degree, built harder still', [100, 200, 300, 400]),
  tunedHnsw(24, 64, 'a denser graph, built as today', [100, 200, 300, 400]),
  {
    name: 'halfvec-1536',
    summary: 'vector(1536) column; HNSW on embedding::halfvec(1536) (half-precision index)',
    dimensions: 1536,
    space: 'lexical',
    column: 'vector(1536)',
    index: {
      name: 'chunks_embedding_halfvec_hnsw_idx',
      ddl: 'CREATE INDEX chunks_embedding_halfvec_hnsw_idx ON chunks USING hnsw ((embedding::halfvec(1536)) halfvec_cosine_ops)',
    },
    settings: efSweep([100, 400, 1000]),
    statement: (_s, filtered) =>
      nearest('embedding::halfvec(1536)', '$1::vector::halfvec(1536)', filtered),
    inserts: 'short',
  },
  plainVector(768, 'short'),
  plainVector(512, 'full'),
  binaryQuantized('lexical'),
  binaryQuantized('rotated'),
  subvectorReranked(),
  ivfflat(100, [5, 10, 20, 30, 40]),
  ivfflat(200, [10, 20, 40, 60]),
];

export function variantsNamed(names: string[] | undefined): Variant[] {
  if (!names) return VARIANTS;
  const unknown = names.filter((n) => !VARIANTS.some((v) => v.name === n));
  if (unknown.length) {
    throw new Error(
      `unknown variant(s) ${unknown.join(', ')}; choose from ${VARIANTS.map((v) => v.name).join(', ')}`,
    );
  }
  return VARIANTS.filter((v) => names.includes(v.name));
}
