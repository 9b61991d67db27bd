-- kbchat_keep_an_owner: its current definition, last set by migrations/0010_collections.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- A collection keeps at least one owner: a change or removal that would leave none fails
-- (SQLSTATE KBC01, answered 409), unless the collection or the user is being deleted. The
-- collection's row is locked first, so two owners demoting each other at once cannot both win.
CREATE FUNCTION kbchat_keep_an_owner() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
BEGIN
  IF OLD.role <> 'owner' OR (TG_OP = 'UPDATE' AND NEW.role = 'owner') THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM collections WHERE id = OLD.collection_id FOR UPDATE;
  IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM collection_members WHERE collection_id = OLD.collection_id AND role = 'owner'
  ) THEN
    RAISE EXCEPTION 'a collection keeps at least one owner' USING ERRCODE = 'KBC01';
  END IF;
  RETURN NULL;
END
$$;
