-- kbchat_keyword_candidates: its current definition, last set by migrations/0024_knowledge_upkeep.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The keyword list (migrations 0012, 0014) with a better split and one index scan.
--
-- Measured over bench:paths' 10,000 chunks in-process (40 questions, depth 50): the function's
-- p50 stayed ~5.5 ms but its p95 was 31-40 ms and its slowest question 72-130 ms, while
-- hybrid search's p95 was twice vector search's. The slow questions mix a few rare terms with
-- several common ones ("How is cebai zil kamvem rix tou handled for sinkun?": df 4,635, 4,354,
-- 4,290, 1,562, 324, 108, 47, 27 of 10,000). 0014's split (non-essential: the most common
-- terms whose idf sum is below every rarer term's idf) kept one term out there, so 7,435
-- chunks were scored for a list of 50.
--
-- 1. The split now also uses a threshold, as MaxScore does with its running k-th score: the
--    p_depth-th best score among up to 4 × p_depth chunks of the rarest terms (scored in full)
--    is at most the list's last score, so a chunk whose terms are all in a run summing below
--    it cannot be in the list (at least p_depth chunks score more), and that run is
--    non-essential. Above: 498 chunks scored instead of 7,435. Any chunks would give a valid
--    threshold; the rarest terms' give a high one, and at most 4 × p_depth of them are read,
--    only when the terms 0014's split leaves essential have more than 8 × p_depth chunks
--    between them (their df summed, before the file and collection filters).
-- 2. The chunks to score are found with one index scan of the terms OR-ed, and each is scored
--    by a subquery over its row, instead of one scan per term, a grouping, and a second
--    fetch of every row for the common terms.
--
-- The list is unchanged: same scores (numeric sums, exact in any order), same order, ties by
-- id; the 40 questions' lists at depths 10, 50 and 200 were identical to 0014's, and
-- bench:collections' 60. After: p50 3.8 ms (4.8 before), p95 10-11 ms, slowest 22-34 ms.
CREATE OR REPLACE FUNCTION kbchat_keyword_candidates(
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
    SELECT array(
      SELECT f.id FROM files f
      WHERE f.status <> 'ready' OR NOT f.enabled OR f.superseded_by IS NOT NULL
    ) AS ids
  ),
  n AS MATERIALIZED (
    SELECT coalesce(
      (SELECT nullif(greatest(c.reltuples, 0), 0)::float8 FROM pg_class c WHERE c.oid = 'chunks'::regclass),
      (SELECT count(*)::float8 FROM chunks)
    ) AS total
  ),
  asked AS MATERIALIZED (
    SELECT t.query, t.term FROM unnest(p_queries, p_terms) AS t(query, term)
  ),
  -- The statistics' most common elements that the question asks about.
  common AS MATERIALIZED (
    SELECT e.elem, max(e.freq::float8) AS freq
    FROM pg_stats s
    CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(elem, freq)
    WHERE s.schemaname = 'public' AND s.tablename = 'chunks' AND s.attname = 'search_terms'
      AND e.elem IN (SELECT a.term FROM asked a)
    GROUP BY e.elem
  ),
  -- The caller reads every collection (the spec's one shared knowledge base, or a SUPER_ADMIN):
  -- the whole table's statistics are then theirs, and say nothing they may not know.
  everything AS MATERIALIZED (
    SELECT (SELECT count(*) FROM collections) <= cardinality(r.ids) AS readable FROM readable r
  ),
  term_stats AS MATERIALIZED (
    SELECT t.query, t.term, n.total,
      CASE
        WHEN n.total > p_min_rows AND coalesce(c.freq, 0) > p_common_share THEN NULL
        -- A common term's frequency from the statistics instead of counting its many rows.
        WHEN c.freq IS NOT NULL AND (SELECT e.readable FROM everything e) THEN c.freq * n.total
        ELSE (
          SELECT count(*)::float8 FROM (
            SELECT 1 FROM chunks ch, readable r
            WHERE ch.search_terms @@ t.query AND ch.collection_id = any(r.ids)
            LIMIT greatest(n.total * p_common_share, p_min_rows)::bigint + 1
          ) counted
        )
      END AS df
    FROM asked t
    CROSS JOIN n
    LEFT JOIN common c ON c.elem = t.term
  ),
  terms AS MATERIALIZED (
    SELECT query, term, df,
      round(ln(1 + (greatest(total, df) - df + 0.5) / (df + 0.5))::numeric, 12) AS idf
    FROM term_stats
    WHERE df > 0 AND df <= greatest(total * p_common_share, p_min_rows)
  ),
  -- Terms from the most common down: position, the idf sum up to and including it, and the
  -- idf of the next (rarer) term, the smallest idf among all rarer ones.
  ordered AS MATERIALIZED (
    SELECT query, idf, df,
      row_number() OVER w AS position,
      sum(idf) OVER w AS idf_through,
      lead(idf) OVER w AS next_idf,
      lead(df) OVER w AS next_df
    FROM terms
    WINDOW w AS (ORDER BY df DESC, term ROWS UNBOUNDED PRECEDING)
  ),
  -- 0014's split: the longest run from the most common whose idf sum is below every rarer
  -- term's idf, with a term of df ≥ p_depth left essential.
  static_split AS MATERIALIZED (
    SELECT coalesce(max(position) FILTER (WHERE idf_through < next_idf AND next_df >= p_depth), 0) AS cut
    FROM ordered
  ),
  -- Up to 4 × p_depth chunks of the rarest terms, each scored by all its terms. The p_depth-th
  -- best score among any chunks is at most the list's last score: the threshold. Read only
  -- when the terms 0014's split leaves essential have more than 8 × p_depth chunks (df
  -- summed): for most questions they have a few hundred, and scoring 4 × p_depth more to find
  -- the threshold cost more than it saved.
  seed AS MATERIALIZED (
    SELECT DISTINCT ON (x.id) x.id, x.score FROM (
      SELECT m.id, m.score
      FROM (SELECT st.query, st.df, st.term FROM terms st ORDER BY st.df, st.term) t
      CROSS JOIN LATERAL (
        SELECT ch.id, (SELECT sum(a.idf) FROM terms a WHERE ch.search_terms @@ a.query) AS score
        FROM chunks ch, readable r, not_ready nr
        WHERE ch.search_terms @@ t.query
          AND ch.collection_id = any(r.ids)
          AND ch.file_id <> all(nr.ids)
          AND ch.enabled
          AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
          AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
        LIMIT 4 * p_depth
      ) m
      WHERE (SELECT sum(o.df) FROM ordered o WHERE o.position > (SELECT s.cut FROM static_split s))
        > 8 * p_depth
      LIMIT 4 * p_depth
    ) x
  ),
  threshold AS MATERIALIZED (
    SELECT s.score AS theta FROM seed s ORDER BY s.score DESC OFFSET p_depth - 1 LIMIT 1
  ),
  -- The non-essential terms are positions 1..cut (0: no split, every term is essential):
  -- 0014's run, or the longest run from the most common whose idf sum is below the threshold.
  split AS MATERIALIZED (
    SELECT greatest(
      (SELECT s.cut FROM static_split s),
      coalesce(max(position) FILTER (WHERE idf_through < (SELECT th.theta FROM threshold th)), 0)
    ) AS cut
    FROM ordered
  ),
  -- Chunks with an essential term (one index scan for all of them), each scored by all its
  -- terms; only when there is a split.
  pruned AS MATERIALIZED (
    SELECT ch.id, (SELECT sum(t.idf) FROM ordered t WHERE ch.search_terms @@ t.query) AS score
    FROM chunks ch
    CROSS JOIN readable r
    CROSS JOIN not_ready nr
    WHERE (SELECT sp.cut FROM split sp) > 0
      AND ch.search_terms @@ (
        SELECT string_agg('(' || t.query::text || ')', ' | ')::tsquery FROM ordered t
        WHERE t.position > (SELECT sp.cut FROM split sp)
      )
      AND ch.collection_id = any(r.ids)
      AND ch.file_id <> all(nr.ids)
      AND ch.enabled
      AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
      AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
  ),
  -- Enough chunks with an essential term. With 0014's cut each of them outranks every chunk
  -- without one; with the threshold's, at least p_depth of them (the seed's best) score at
  -- least the threshold, above every chunk without one. Either way the list is among them.
  pruned_suffices AS MATERIALIZED (
    SELECT (SELECT sp.cut FROM split sp) > 0 AND (SELECT count(*) FROM pruned) >= p_depth AS yes
  ),
  every_match AS MATERIALIZED (
    SELECT ch.id, (SELECT sum(t.idf) FROM terms t WHERE ch.search_terms @@ t.query) AS score
    FROM chunks ch
    CROSS JOIN readable r
    CROSS JOIN not_ready nr
    WHERE NOT (SELECT ps.yes FROM pruned_suffices ps)
      AND ch.search_terms @@ (SELECT string_agg('(' || t.query::text || ')', ' | ')::tsquery FROM terms t)
      AND ch.collection_id = any(r.ids)
      AND ch.file_id <> all(nr.ids)
      AND ch.enabled
      AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
      AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
  )
  SELECT scored.id, row_number() OVER (ORDER BY scored.score DESC, scored.id) AS rank
  FROM (
    SELECT s.id, s.score
    FROM (
      SELECT p.id, p.score FROM pruned p WHERE (SELECT ps.yes FROM pruned_suffices ps)
      UNION ALL
      SELECT m.id, m.score FROM every_match m
    ) s
    ORDER BY s.score DESC, s.id
    LIMIT p_depth
  ) scored
$$;
