import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { chunks, collections, filePages, files } from '../db/schema';
import { quoteLexeme } from '../ingest/search-terms';
import type { ChunkMatch, KnowledgeDb } from './files';
import { incomingRelations, type ResultValidity } from './result-validity';
import {
  fileFilterCondition,
  filteredFileIds,
  unmatchedFileIds,
  type SearchFilters,
} from './search-filters';
import { HOLDING_STATUSES, validityStatus, type ValidityStatusName } from './validity';

export type SearchMode = 'hybrid' | 'vector' | 'keyword';
export type SearchList = 'vector' | 'keyword';

/** Reciprocal Rank Fusion's constant: a chunk's fused score is Σ 1 / (RRF_K + rank). */
export const RRF_K = 60;
/**
 * How deep each list goes before fusion (at least `top`): a chunk ranked 50th by one list and
 * absent from the other scores below one the other list ranks anywhere in its first 50.
 */
export const FUSION_DEPTH = 50;
/**
 * The keyword list's weight in the fusion when the question carries a number or a code (a term
 * with a digit: "47.9亿", "ZJAC00-2024-0001", "2024/17"): such terms are what embeddings blur
 * and what the user typed exactly, so a chunk that matches them lexically should lead. Measured
 * with `npm run eval` (README): exact-term hit@1 0.861 → 0.944, no other category lower.
 */
export const CODE_KEYWORD_WEIGHT = 2;
/** Terms in a larger share of the chunks than this are too common to rank by (see searchQuery). */
export const COMMON_TERM_SHARE = 0.5;
/** …unless the knowledge base is small: below this many chunks every term counts. */
export const COMMON_TERM_MIN_ROWS = 200;
/**
 * A chunk of a document no longer in force (repealed, replaced, expired: validity.ts) ranks just
 * below the in-force candidates that say the same or nearly (their vectors at most this cosine
 * distance from its own, of the same model: the article of the notice that replaced it, with a
 * new amount or date): that passage comes first. Nothing else moves it: where it alone answers
 * the question, it keeps its place, and the answer says that it no longer holds (the validity
 * note). A factor on every such chunk would not do: fused scores are close together (1/61,
 * 1/62, …), and halving one put a repealed passage that alone answered below every passage in
 * force that merely shared the question's words.
 */
export const SAME_CONTENT_DISTANCE = 0.2;

/**
 * When everything a caller can read is at most this many chunks in at most this many files, a
 * question without filters names those files in the vector list's filter (`readableFileIds`,
 * from smallScopeQuery). Measured in the collections study (docs/decisions/; 10,000 chunks in PGlite): a
 * member of one small collection among 50 waited 51–57 ms for a hybrid query under the policy
 * alone, whose vector list walked the HNSW index past every chunk the member cannot see, and
 * 11–14 ms with the files named, which the planner reads through `chunks_file_id_index_key`
 * and sorts exactly, at a cost that grows with the scope, not with the table. Sorting exactly
 * costs ~10 µs a chunk here against ~20 ms for an HNSW search, so the two meet near 1,700
 * chunks; the file limit keeps the statement small.
 */
export const SMALL_SCOPE = { chunks: 1_000, files: 100 } as const;

/**
 * The files the caller can read (the policies keep the list to those) that have chunks, as
 * `ids`, when they are a small scope (SMALL_SCOPE); no row otherwise. No more file rows are
 * read than a small scope can have, so a reader of a large shared collection pays no more for
 * the lookup than anyone else.
 */
export function smallScopeQuery(limits: { chunks: number; files: number } = SMALL_SCOPE): SQL {
  return sql`
    select array_agg(id) as ids from (
      select ${files.id} as id, ${files.chunks} as chunks from ${files}
      where ${files.chunks} > 0
      limit ${limits.files + 1}
    ) readable
    having count(*) between 1 and ${limits.files} and sum(chunks) <= ${limits.chunks}`;
}

export interface SearchOptions {
  mode: SearchMode;
  top: number;
  fileIds?: string[];
  /** Only these collections (the policies already keep to the ones the caller can read). */
  collectionIds?: string[];
  /**
   * Without `fileIds` or `collectionIds`: the files the caller can read, when they are a small
   * scope (smallScopeQuery). The vector list filters by them besides the policy: they are every
   * file with chunks the policy lets the caller read, so no chunk the caller could be shown is
   * left out, and the planner, which cannot see how few chunks the policy leaves, reads them by
   * their index and sorts them exactly instead of walking the HNSW index past chunks the caller
   * cannot see (the results are then exact where the policy alone approximates them).
   */
  readableFileIds?: string[];
  /** The question's embedding (index form). */
  vector: number[];
  /**
   * The model that made it (`name@dimensions`): the vector list compares it only with chunks of
   * that model (a re-index brings the others back; until then the keyword list finds them).
   */
  embeddingModel: string;
  /** The question's keyword terms (ingest/search-terms.ts queryTerms). */
  terms: string[];
  /** What the documents must say of themselves (search-filters.ts); none: every file. */
  filters?: SearchFilters;
}

export type SearchMatch = ChunkMatch & {
  /** The document's 文号 and title, when it says. */
  doc_number: string | null;
  title: string | null;
  collection_id: string;
  collection_name: string;
  found_by: SearchList[];
  ranks: { vector?: number; keyword?: number };
  validity: ResultValidity;
};

type Row = Omit<ChunkMatch, 'similarity'> & {
  doc_number: string | null;
  title: string | null;
  collection_id: string;
  collection_name: string;
  similarity: string | number;
  vector_rank: string | number | null;
  keyword_rank: string | number | null;
  status: ValidityStatusName;
  relations: ResultValidity['relations'] | null;
};

/** The `top` best chunks for the mode: one statement, one round trip. */
export async function searchChunks(kdb: KnowledgeDb, options: SearchOptions) {
  const { rows } = await kdb.run(kdb.db.execute<Row>(searchQuery(options)));
  return rows.map(({ vector_rank, keyword_rank, status, relations, ...row }): SearchMatch => {
    const ranks: SearchMatch['ranks'] = {};
    if (vector_rank !== null) ranks.vector = Number(vector_rank);
    if (keyword_rank !== null) ranks.keyword = Number(keyword_rank);
    return {
      ...row,
      id: Number(row.id),
      similarity: Number(row.similarity),
      found_by: (['vector', 'keyword'] as const).filter((list) => ranks[list] !== undefined),
      ranks,
      validity: { status, relations: relations ?? [] },
    };
  });
}

/**
 * The statement, exported so a test can EXPLAIN exactly what runs. Common table expressions:
 *
 * - `vector_list`: the nearest chunks by cosine distance. Its inner query orders by the
 *   distance operator ascending with a LIMIT, the only shape the HNSW index serves; the
 *   `ready` and file filters apply to the index scan's rows (iterative scans, on for the
 *   database, keep it finding rows until enough pass).
 * - `keyword_list`: the chunks sharing terms with the question, from
 *   kbchat_keyword_candidates (migrations 0012, 0014, 0017: GIN index on `search_terms`, each term's
 *   document frequency counted once per statement), scored by the sum of the shared terms'
 *   inverse document frequency (BM25's idf), so a rare code or amount outweighs many common
 *   words. Chunks are short and of similar length, so presence is scored, not frequency or
 *   length.
 * - `fused` (materialised): the two lists joined, scored by Reciprocal Rank Fusion. Ties (one
 *   list's 1st against the other's 1st) go to the higher similarity. Materialised because under
 *   row-level security a join on `coalesce(v.id, k.id)` (not a leakproof expression) cannot
 *   use the primary key: inlined, the final join read every chunk the caller can see
 *   (the collections study in docs/decisions/: explain time 61 → 8 ms over 10,000 chunks).
 * - `validity`, `judged` (materialised): each fused chunk's document judged by validity.ts's
 *   rule; one no longer in force scored just below the in-force candidates that say the same
 *   (SAME_CONTENT_DISTANCE) before the top is cut.
 * - With document filters (search-filters.ts) both lists keep to the matching files' ids,
 *   computed once; without them the lists are exactly as they were.
 *
 * Similarity is computed for every result, whichever list found it: the chat's threshold is a
 * cosine similarity whatever the mode.
 */
export function searchQuery(options: SearchOptions): SQL {
  const { mode, top } = options;
  const keywordWeight = options.terms.some((term) => /\d/.test(term)) ? CODE_KEYWORD_WEIGHT : 1;
  const depth = mode === 'hybrid' ? Math.max(top, FUSION_DEPTH) : top;
  const useVector = mode !== 'keyword';
  const useKeyword = mode !== 'vector' && options.terms.length > 0;
  const literal = sql`${`[${options.vector.join(',')}]`}::vector`;
  const scope = sql`${inList(chunks.fileId, options.fileIds ?? options.readableFileIds)} ${inList(chunks.collectionId, options.collectionIds)}`;
  // Document filters: the matching files' ids, computed once in the statement, restrict both
  // lists (search-filters.ts). Without filters the statement is the one it always was.
  const condition = fileFilterCondition(options.filters);
  const matching = condition && filteredFileIds(condition, options.fileIds);
  // The vector list tests "not one of the files that do not match" (unmatchedFileIds): it stays
  // an HNSW scan. Small scopes come here as named files instead (filteredScopeQuery).
  const filter =
    condition && matching
      ? sql`${scope} and ${chunks.fileId} <> all(${unmatchedFileIds(condition)})`
      : scope;
  // Only ready files are searched. Written as "not one of the files still being processed"
  // (an array computed once per statement, usually empty) so that it stays a per-row filter on
  // the index scan, costs no lookup per row, and the planner estimates it as passing nearly
  // every row: a per-row subquery (`(select status …) = 'ready'`) was estimated to pass 0.5 %
  // and turned the vector list into a full scan and sort (~350 ms over 10,000 chunks).
  const holding = sql.join(
    HOLDING_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  // Switched-off files and superseded versions are left out the same way (few, and indexed:
  // files_not_searched_idx); a switched-off chunk by its own column.
  const ready = sql`${chunks.fileId} <> all (array(select f.id from ${files} f where f.status <> 'ready' or not f.enabled or f.superseded_by is not null)) and ${chunks.enabled}`;

  const vectorList = useVector
    ? sql`
      select id, row_number() over (order by distance, id) as rank, distance from (
        select ${chunks.id} as id, ${chunks.embedding} <=> ${literal} as distance
        from ${chunks}
        where ${ready} and ${chunks.embeddingModel} = ${options.embeddingModel} ${filter}
        order by ${chunks.embedding} <=> ${literal}
        limit ${depth}
      ) nearest`
    : sql`select null::bigint as id, null::bigint as rank, null::float8 as distance where false`;

  // The keyword list comes from a function (migrations 0012, 0014, 0017): under row-level security the
  // GIN index cannot serve @@ (not a leakproof operator) and every keyword search would read
  // every chunk; the function applies the read policy's rule itself, with the index.
  const keywordList = useKeyword
    ? sql`
      select id, rank from kbchat_keyword_candidates(
        array[${sql.join(
          options.terms.map((term) => sql`${quoteLexeme(term)}::tsquery`),
          sql`, `,
        )}]::tsquery[],
        array[${sql.join(
          options.terms.map((term) => sql`${term}`),
          sql`, `,
        )}]::text[],
        ${depth}::int,
        ${matching ?? uuidArray(options.fileIds)},
        ${uuidArray(options.collectionIds)},
        ${COMMON_TERM_SHARE}::float8,
        ${COMMON_TERM_MIN_ROWS}::int)`
    : sql`select null::bigint as id, null::bigint as rank where false`;

  return sql`
    with vector_list as (${vectorList}),
    keyword_list as materialized (${keywordList}),
    fused as materialized (
      select coalesce(v.id, k.id) as id, v.rank as vector_rank, k.rank as keyword_rank,
             v.distance,
             coalesce(1.0 / (${RRF_K} + v.rank), 0)
               + coalesce(${keywordWeight}::numeric / (${RRF_K} + k.rank), 0) as score
      from vector_list v full join keyword_list k on k.id = v.id
    ),
    -- Each fused chunk's document judged by the one validity rule (validity.ts). Joined by the
    -- materialised id: the primary key.
    validity as materialized (
      select fused.id, fused.vector_rank, fused.keyword_rank, fused.distance, fused.score,
             j.status, j.status in (${holding}) as holds
      from fused
      join ${chunks} on ${chunks.id} = fused.id
      cross join lateral (
        select ${validityStatus({ id: sql`jf.id`, docNumber: sql`jf.doc_number`, expiresOn: sql`jf.expires_on` })} as status
        from ${files} jf where jf.id = ${chunks.fileId}
      ) j
    ),
    -- A chunk no longer in force scored just below the lowest in-force candidate that says the
    -- same (SAME_CONTENT_DISTANCE), before the cut below, so that the passage it gives way to
    -- is in the answer; the vectors are compared only for such chunks (few, often none).
    judged as materialized (
      select r.id, r.vector_rank, r.keyword_rank, r.distance, r.status,
             case when r.holds then r.score
                  else least(r.score, coalesce((
                    select min(h.score) * 0.999999
                    from validity h
                    join ${chunks} hc on hc.id = h.id
                    join ${chunks} rc on rc.id = r.id
                    where h.holds and hc.embedding_model = rc.embedding_model
                      and (hc.embedding <=> rc.embedding) <= ${SAME_CONTENT_DISTANCE}::float8
                  ), r.score)) end as score
      from validity r
    ),
    -- The rows that can be in the answer: a score at least the last place's, ties included
    -- (similarity breaks them). Only these are joined to their chunk, file and page and, found
    -- by keywords alone, get their similarity computed: not all of both lists.
    candidates as materialized (
      select * from judged
      where judged.score >= coalesce(
        (select s.score from judged s order by s.score desc offset ${top - 1}::int limit 1), 0)
    )
    select fused.id, 1 - coalesce(fused.distance, ${chunks.embedding} <=> ${literal}) as similarity,
           ${chunks.content} as content, ${chunks.fileId} as file_id, f.name as file_name,
           f.doc_number, f.title,
           ${chunks.collectionId} as collection_id, col.name as collection_name,
           ${chunks.page} as page, p.label as section, ${chunks.headingPath} as heading_path, p.source as text_source, fused.vector_rank, fused.keyword_rank,
           fused.status, ${incomingRelations(sql`f.id`, sql`f.doc_number`)} as relations
    from candidates fused
    join ${chunks} on ${chunks.id} = fused.id
    join ${files} f on f.id = ${chunks.fileId}
    join ${collections} col on col.id = ${chunks.collectionId}
    left join ${filePages} p on p.file_id = ${chunks.fileId} and p.page = ${chunks.page}
    order by fused.score desc, similarity desc, fused.id
    limit ${top}`;
}

/** `and column in (ids)`, or nothing without ids. */
function inList(column: AnyColumn, ids: readonly string[] | undefined): SQL {
  if (!ids) return sql``;
  return sql`and ${column} in (${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

/** A uuid[] parameter, or null for "no filter". */
function uuidArray(ids: readonly string[] | undefined): SQL {
  if (!ids) return sql`null::uuid[]`;
  return sql`array[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]::uuid[]`;
}
