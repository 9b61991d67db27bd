-- kbchat_find_user: its current definition, last set by migrations/0009_collection_access.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- A user to add to a collection, by name (case-insensitive, as logins are): id and name as
-- stored, or nothing for an unknown or disabled user. Only for a caller with a session.
CREATE FUNCTION kbchat_find_user(p_username text)
RETURNS TABLE (id uuid, username text)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  SELECT u.id, u.username FROM users u
  WHERE kbchat_user() IS NOT NULL AND lower(u.username) = lower(p_username) AND NOT u.disabled
$$;
