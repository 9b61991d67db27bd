-- kbchat_end_session: its current definition, last set by migrations/0031_ended_sessions.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- A logout: lists the token's session (its jti) as ended until the token would have expired, for
-- the user the batch's session check named (so nobody ends another's session), and removes the
-- rows whose tokens have expired since. SECURITY DEFINER: the workers' role has no row of
-- ended_sessions.
CREATE FUNCTION kbchat_end_session(p_session uuid, p_expires_at timestamptz)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  me uuid := nullif(current_setting('kbchat.user_id', true), '')::uuid;
BEGIN
  IF me IS NULL THEN
    RAISE EXCEPTION 'no session to end' USING ERRCODE = 'KBS01';
  END IF;
  DELETE FROM ended_sessions WHERE expires_at < now();
  INSERT INTO ended_sessions (id, user_id, expires_at) VALUES (p_session, me, p_expires_at)
    ON CONFLICT (id) DO NOTHING;
END
$$;
