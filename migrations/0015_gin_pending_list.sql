-- Keyword search scans the GIN index's whole pending list on every term it looks up. With
-- the default limit (4 MB) a list that had grown with inserts made each term's lookup ~2 ms
-- over 10,000 chunks and the keyword list 4x slower (bench/paths); the local database has no
-- autovacuum to merge it, and Neon's merges it only as often as it vacuums. Capped at 256 kB
-- (inserters merge it when it is full), a term's lookup costs about what it costs with no
-- pending list, and an insert stays ~3x cheaper than with fastupdate off (GIN's share of an
-- ingest is small either way: HNSW maintenance is most of it).
-- ALTER rather than drizzle-kit's DROP and CREATE: the same index, not rebuilt.
ALTER INDEX "chunks_search_terms_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
-- Merge what is pending now, so the cap holds from the start.
SELECT gin_clean_pending_list('chunks_search_terms_idx'::regclass);
