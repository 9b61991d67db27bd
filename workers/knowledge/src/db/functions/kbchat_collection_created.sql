-- kbchat_collection_created: its current definition, last set by migrations/0009_collection_access.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- Creating a collection makes its creator its owner, whatever the statement said.
CREATE FUNCTION kbchat_collection_created() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
BEGIN
  IF NEW.created_by IS NOT NULL THEN
    INSERT INTO collection_members (collection_id, user_id, username, role)
    SELECT NEW.id, u.id, u.username, 'owner' FROM users u WHERE u.id = NEW.created_by;
  END IF;
  RETURN NULL;
END
$$;
