-- The keyword list of a search (migration 0012), the same ranking at a fraction of the work.
--
-- Measured over 10,000 chunks (npm run bench:collections, bench:paths): most of a hybrid
-- search's time was this function, and most of the function's was two things.
--
-- 1. The planner's most common elements were unnested whole (1,000 of them) and searched row
--    by row once per question term. Now only the question's own terms are kept from them, in
--    one pass, and joined to the terms once.
--
-- 2. Every chunk sharing any term with the question was scored, so a question with a few
--    everyday words ("must", "be", 的) scored thousands of chunks for a list of 50. Now the
--    terms are split as MaxScore does: from the most common down, the longest run of terms
--    whose idf sum is below the idf of every rarer term is "non-essential". A chunk with none
--    of the rarer (essential) terms scores at most that sum, and a chunk with one of them more,
--    so when at least p_depth chunks (after every filter) have an essential term, the list is
--    exactly those chunks' best p_depth: found through the GIN index by the rare terms only,
--    scored in full (the common terms checked on those rows alone). Otherwise (no such split,
--    or too few chunks) every matching chunk is scored as before. Same scores, same order:
--    the ranking does not change, only the work. Each term's idf is rounded to 12 decimals
--    and summed as numeric, so a sum is exact whatever order it is taken in (the shortcut adds
--    the essential terms first), equal sets of terms score equal, and ties go by id in both
--    ways (before, the float order of the sum decided some ties).
--
-- Scoring, df and the read rule are migration 0012's; see there.
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
    SELECT array(SELECT f.id FROM files f WHERE f.status <> 'ready') AS ids
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
    SELECT query, idf,
      row_number() OVER w AS position,
      sum(idf) OVER w AS idf_through,
      lead(idf) OVER w AS next_idf,
      lead(df) OVER w AS next_df
    FROM terms
    WINDOW w AS (ORDER BY df DESC, term ROWS UNBOUNDED PRECEDING)
  ),
  -- The non-essential terms are positions 1..cut (0: no split, every term is essential):
  -- the longest run whose idf sum is below every rarer term's idf, among those that leave a
  -- term with enough chunks (df ≥ p_depth) essential, so that the shortcut is likely to have
  -- its p_depth chunks (pruned_suffices checks). Sums of numeric idf are exact, so "below"
  -- is strictly below.
  split AS MATERIALIZED (
    SELECT coalesce(
      max(position) FILTER (WHERE idf_through < next_idf AND next_df >= p_depth), 0
    ) AS cut
    FROM ordered
  ),
  -- Chunks with an essential term, scored by all their terms; only when there is a split.
  essential AS MATERIALIZED (
    SELECT ch.id, sum(t.idf) AS score
    FROM chunks ch
    JOIN ordered t ON ch.search_terms @@ t.query
    CROSS JOIN readable r
    CROSS JOIN not_ready nr
    WHERE (SELECT sp.cut FROM split sp) > 0
      AND t.position > (SELECT sp.cut FROM split sp)
      AND ch.collection_id = any(r.ids)
      AND ch.file_id <> all(nr.ids)
      AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
      AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
    GROUP BY ch.id
  ),
  pruned AS MATERIALIZED (
    SELECT e.id, e.score + coalesce(sum(x.idf), 0) AS score
    FROM essential e
    JOIN chunks ch ON ch.id = e.id
    LEFT JOIN ordered x ON x.position <= (SELECT sp.cut FROM split sp) AND ch.search_terms @@ x.query
    GROUP BY e.id, e.score
  ),
  -- Enough chunks with an essential term: each outranks every chunk without one.
  pruned_suffices AS MATERIALIZED (
    SELECT (SELECT sp.cut FROM split sp) > 0 AND (SELECT count(*) FROM pruned) >= p_depth AS yes
  ),
  every_match AS MATERIALIZED (
    SELECT ch.id, sum(t.idf) AS score
    FROM chunks ch
    JOIN terms t ON ch.search_terms @@ t.query
    CROSS JOIN readable r
    CROSS JOIN not_ready nr
    WHERE NOT (SELECT ps.yes FROM pruned_suffices ps)
      AND ch.collection_id = any(r.ids)
      AND ch.file_id <> all(nr.ids)
      AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
      AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
    GROUP BY ch.id
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
