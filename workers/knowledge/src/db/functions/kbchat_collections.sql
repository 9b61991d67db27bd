-- kbchat_collections: its current definition, last set by migrations/0009_collection_access.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The collections the acting user holds at least `p_min_role` in: `viewer` (read, chat),
-- `editor` (also upload, delete) or `owner` (also members, rename, delete the collection).
-- The shared collection (all zeros) is every user's to read and upload to; a SUPER_ADMIN owns
-- every collection. SECURITY DEFINER: it reads the membership table past its own policies.
CREATE FUNCTION kbchat_collections(p_min_role text) RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  me uuid := kbchat_user();
BEGIN
  IF me IS NULL THEN
    RETURN '{}';
  END IF;
  IF current_setting('kbchat.role', true) = 'SUPER_ADMIN' THEN
    RETURN array(SELECT c.id FROM collections c);
  END IF;
  RETURN array(
    SELECT '00000000-0000-0000-0000-000000000000'::uuid WHERE p_min_role IN ('viewer', 'editor')
    UNION ALL
    SELECT m.collection_id FROM collection_members m
    WHERE m.user_id = me
      AND CASE p_min_role
            WHEN 'viewer' THEN true
            WHEN 'editor' THEN m.role IN ('editor', 'owner')
            ELSE m.role = 'owner'
          END
  );
END
$$;
