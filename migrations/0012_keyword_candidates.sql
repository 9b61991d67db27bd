-- The keyword list of a search (workers/knowledge/src/store/search.ts), as a function of its own.
--
-- Why a function: under row-level security Postgres uses an index only for conditions whose
-- operator is LEAKPROOF (else a crafted condition could see rows before the policy hides
-- them), and full-text search's @@ is not; so for the workers' role every keyword search was a
-- sequential scan of all chunks. This function runs as the tables' owner, where the GIN index
-- serves @@, and applies the read policy's rule itself: only chunks of collections the caller
-- can read (kbchat_collections('viewer')), of ready files, and of the files and collections
-- asked for. The statement that calls it still reads chunks through the policies.
--
-- Scoring is as before: each chunk's sum of its shared terms' BM25 idf,
-- ln(1 + (N - df + 0.5) / (df + 0.5)). df is counted over the chunks the caller can read (so
-- the ranking says nothing of other collections' words), and stops counting once a term is in
-- more than p_common_share of N (such a term is left out: its idf is near nothing and joining
-- every chunk that has it costs more than the rest together). N is the planner's estimate of
-- all chunks: a number of rows, not their content. A term among the planner's most common
-- elements of the whole table above that share is left out without counting; when the caller
-- reads every collection, a common term's df is taken from those statistics (as before
-- collections: counting it was most of a hybrid query's time).
CREATE FUNCTION kbchat_keyword_candidates(
  p_queries tsquery[],
  p_terms text[],
  p_depth integer,
  p_file_ids uuid[],
  p_collection_ids uuid[],
  p_common_share float8,
  p_min_rows integer
)
RETURNS TABLE (id bigint, rank bigint)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  WITH readable AS MATERIALIZED (
    SELECT kbchat_collections('viewer') AS ids
  ),
  not_ready AS MATERIALIZED (
    SELECT array(SELECT f.id FROM files f WHERE f.status <> 'ready') AS ids
  ),
  n AS MATERIALIZED (
    SELECT coalesce(
      (SELECT nullif(greatest(c.reltuples, 0), 0)::float8 FROM pg_class c WHERE c.oid = 'chunks'::regclass),
      (SELECT count(*)::float8 FROM chunks)
    ) AS total
  ),
  common AS MATERIALIZED (
    SELECT e.elem, e.freq::float8 AS freq
    FROM pg_stats s
    CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(elem, freq)
    WHERE s.schemaname = 'public' AND s.tablename = 'chunks' AND s.attname = 'search_terms'
      AND e.elem IS NOT NULL
  ),
  -- The caller reads every collection (the spec's one shared knowledge base, or a SUPER_ADMIN):
  -- the whole table's statistics are then theirs, and say nothing they may not know.
  everything AS MATERIALIZED (
    SELECT (SELECT count(*) FROM collections) <= cardinality(r.ids) AS readable FROM readable r
  ),
  term_stats AS MATERIALIZED (
    SELECT t.query, n.total,
      CASE
        WHEN n.total > p_min_rows
          AND coalesce((SELECT c.freq FROM common c WHERE c.elem = t.term LIMIT 1), 0) > p_common_share
          THEN NULL
        -- A common term's frequency from the statistics instead of counting its many rows.
        WHEN (SELECT e.readable FROM everything e)
          AND EXISTS (SELECT 1 FROM common c WHERE c.elem = t.term)
          THEN (SELECT c.freq FROM common c WHERE c.elem = t.term LIMIT 1) * n.total
        ELSE (
          SELECT count(*)::float8 FROM (
            SELECT 1 FROM chunks ch, readable r
            WHERE ch.search_terms @@ t.query AND ch.collection_id = any(r.ids)
            LIMIT greatest(n.total * p_common_share, p_min_rows)::bigint + 1
          ) counted
        )
      END AS df
    FROM unnest(p_queries, p_terms) AS t(query, term)
    CROSS JOIN n
  ),
  terms AS MATERIALIZED (
    SELECT query, ln(1 + (greatest(total, df) - df + 0.5) / (df + 0.5)) AS idf
    FROM term_stats
    WHERE df > 0 AND df <= greatest(total * p_common_share, p_min_rows)
  )
  SELECT scored.id, row_number() OVER (ORDER BY scored.score DESC, scored.id) AS rank
  FROM (
    SELECT ch.id, sum(t.idf) AS score
    FROM chunks ch
    JOIN terms t ON ch.search_terms @@ t.query
    CROSS JOIN readable r
    CROSS JOIN not_ready nr
    WHERE ch.collection_id = any(r.ids)
      AND ch.file_id <> all(nr.ids)
      AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
      AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
    GROUP BY ch.id
    ORDER BY score DESC, ch.id
    LIMIT p_depth
  ) scored
$$;
