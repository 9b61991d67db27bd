-- kbchat_key_session: its current definition, last set by migrations/0026_organisation.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The session of an API key (shared/auth/api-key.ts), as kbchat_session is a token's: the key's
-- user as they are now, refused (KBS01) when the key is unknown, revoked (deleted) or expired,
-- or the user disabled or deleted; it sets kbchat.user_id / kbchat.role / kbchat.key_id for the
-- statements after it, and answers the user's session epoch so that the call's later batches
-- check that session as a token's are checked, and the key's id (usage and the audit trail name
-- it). `last_used_at` is written at most once a minute per key.
-- SECURITY DEFINER: the workers' role needs no access to api_keys or users for it.
CREATE FUNCTION kbchat_key_session(p_hash text)
RETURNS TABLE (id uuid, username text, is_super_admin boolean, created_at timestamptz, session_epoch integer, key_id uuid)
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  u users%ROWTYPE;
  k api_keys%ROWTYPE;
BEGIN
  SELECT * INTO k FROM api_keys WHERE api_keys.hash = p_hash;
  IF NOT FOUND OR (k.expires_at IS NOT NULL AND k.expires_at <= now()) THEN
    RAISE EXCEPTION 'session ended' USING ERRCODE = 'KBS01';
  END IF;
  SELECT * INTO u FROM users WHERE users.id = k.user_id;
  IF NOT FOUND OR u.disabled THEN
    RAISE EXCEPTION 'session ended' USING ERRCODE = 'KBS01';
  END IF;
  IF k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = now() WHERE api_keys.id = k.id;
  END IF;
  PERFORM set_config('kbchat.user_id', u.id::text, true);
  PERFORM set_config('kbchat.role', CASE WHEN u.is_super_admin THEN 'SUPER_ADMIN' ELSE 'USER' END, true);
  PERFORM set_config('kbchat.key_id', k.id::text, true);
  RETURN QUERY SELECT u.id, u.username, u.is_super_admin, u.created_at, u.session_epoch, k.id;
END
$$;
