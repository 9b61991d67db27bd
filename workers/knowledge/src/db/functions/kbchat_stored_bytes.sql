-- kbchat_stored_bytes: its current definition, last set by migrations/0039_stored_bytes.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The bytes of originals the acting user has stored: every file they uploaded, in any
-- collection, each version and failed file included, as kbchat_user_storage_quota counts them
-- against usage_limits.user_max_bytes. Chat's usage report tells it beside that limit.
-- SECURITY DEFINER: files in collections the user has since left count too (they still hold
-- storage), though the user can no longer read them; only their sum is told, and only the
-- caller's own.
CREATE OR REPLACE FUNCTION kbchat_stored_bytes() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  SELECT coalesce(sum(f.size), 0)::bigint FROM files f WHERE f.uploader_id = kbchat_user();
$$;
