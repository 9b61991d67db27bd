-- kbchat_session: its current definition, last set by migrations/0031_ended_sessions.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- The "who is this user now" check, made by the same round trip as a request's own work: every
-- statement batch of a call that acts for a user starts with kbchat_session(user, epoch, role,
-- session). It refuses (SQLSTATE KBS01, the batch rolls back, the call answers 401) a user who was
-- deleted or disabled, whose sessions were ended after the token was issued, whose role is not the
-- token's (every role change ends the sessions, so only a forged token can differ), or whose
-- token's own session was ended by a logout (`p_session`, the token's jti, in ended_sessions; a
-- token without one, issued before tokens had it, cannot be ended alone), and it tells the
-- statements after it who they act for (kbchat.user_id, kbchat.role: row-level security).
-- SECURITY DEFINER: a module's database role needs no access to the users table for it.
CREATE FUNCTION kbchat_session(p_user_id uuid, p_epoch integer, p_super_admin boolean, p_session uuid DEFAULT NULL)
RETURNS TABLE (id uuid, username text, is_super_admin boolean, created_at timestamptz)
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  u users%ROWTYPE;
BEGIN
  SELECT * INTO u FROM users WHERE users.id = p_user_id;
  IF NOT FOUND OR u.session_epoch <> p_epoch OR u.disabled OR u.is_super_admin <> p_super_admin
     OR (p_session IS NOT NULL AND EXISTS (SELECT 1 FROM ended_sessions e WHERE e.id = p_session)) THEN
    RAISE EXCEPTION 'session ended' USING ERRCODE = 'KBS01';
  END IF;
  PERFORM set_config('kbchat.user_id', u.id::text, true);
  PERFORM set_config('kbchat.role', CASE WHEN u.is_super_admin THEN 'SUPER_ADMIN' ELSE 'USER' END, true);
  RETURN QUERY SELECT u.id, u.username, u.is_super_admin, u.created_at;
END
$$;
