-- kbchat_ingest_file: its current definition, last set by migrations/0009_collection_access.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The one file an ingestion step works on: set by kbchat_ingest for that transaction only. The
-- pipeline acts for nobody, so it may see and write that file's rows and nothing else.
CREATE FUNCTION kbchat_ingest_file() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT nullif(current_setting('kbchat.ingest_file', true), '')::uuid $$;
