-- kbchat_assert_super_admin_remains: its current definition, last set by migrations/0006_last_super_admin.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The last active super admin stays: a change that could take them away (demote, disable,
-- delete) runs in one statement batch [advisory lock, the change, this check]; when no active
-- super admin is left, this raises KBA01 and the whole batch rolls back (answered as 409).
CREATE FUNCTION kbchat_assert_super_admin_remains()
RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM users WHERE is_super_admin AND NOT disabled) THEN
    RAISE EXCEPTION 'the last super admin cannot be removed' USING ERRCODE = 'KBA01';
  END IF;
END
$$;
