-- Keyword search beside pgvector. Chunks stored before this migration get their terms right
-- after it, from the TypeScript tokenizer (workers/knowledge/src/db/backfill-search-terms.ts,
-- run by dev/stack/migrate.ts wherever migrations are applied).
ALTER TABLE "chunks" ADD COLUMN "search_terms" "tsvector";--> statement-breakpoint
CREATE INDEX "chunks_search_terms_idx" ON "chunks" USING gin ("search_terms");