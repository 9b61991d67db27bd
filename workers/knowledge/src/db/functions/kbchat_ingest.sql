-- kbchat_ingest: its current definition, last set by migrations/0009_collection_access.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
CREATE FUNCTION kbchat_ingest(p_file_id uuid) RETURNS void
LANGUAGE sql VOLATILE
AS $$ SELECT set_config('kbchat.ingest_file', p_file_id::text, true); $$;
