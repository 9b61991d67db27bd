-- HNSW search breadth for every session: 600 instead of migration 0004's 100, so that the
-- served vector search finds what exact search finds. Measured with `npm run bench:index`
-- (10,000 chunks of the offline model's vectors, the index as built since 0000: m 16,
-- ef_construction 64; recall@10 against exact search, p50 in PGlite in-process):
--   ef_search 100: 0.867, 9.5 ms   400: 0.980, 23.8 ms   500: 0.988, 25.4 ms
--   ef_search 600: 0.993, 26.6 ms  700: the planner scans the table exactly instead (90 ms)
-- A denser or harder-built graph reaches 0.99 at a smaller ef_search (m 32 / ef_construction
-- 128: 0.992 at 300), but every ingest pays for it: inserts into it ran 2-6x slower (m 32,
-- m 24, ef_construction 256). A wider search costs the query only. On a smaller table the
-- planner may prefer a full scan, which is exact.
DO $$
BEGIN
  PERFORM '[1]'::vector; -- loads pgvector, so that its settings are known parameters
  EXECUTE format('ALTER DATABASE %I SET hnsw.ef_search = 600', current_database());
END
$$;
