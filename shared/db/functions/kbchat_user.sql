-- kbchat_user: its current definition, last set by migrations/0009_collection_access.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The user the statement acts for: set by kbchat_session (migration 0004), the first statement
-- of every batch a request sends for a user, for that transaction only. Null otherwise.
CREATE FUNCTION kbchat_user() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT nullif(current_setting('kbchat.user_id', true), '')::uuid $$;
