-- The PDF work budget's third count (workers/knowledge/src/ingest/pdf-work-budget.ts): the
-- characters of text a document's pages yielded so far, carried from one batch of pages to the
-- next like decoded_bytes and parsed_bytes, so that the page layouts read together at the end
-- stay within the budget.
ALTER TABLE "files" ADD COLUMN "text_chars" bigint DEFAULT 0 NOT NULL;