CREATE TABLE "ended_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ended_sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "ended_sessions" ADD CONSTRAINT "ended_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ended_sessions_expires_idx" ON "ended_sessions" USING btree ("expires_at");--> statement-breakpoint
-- The workers reach ended_sessions only through the two functions below.
REVOKE ALL ON "ended_sessions" FROM kbchat_app;--> statement-breakpoint
-- kbchat_session also refuses a token whose session was ended (its jti listed by a logout).
DROP FUNCTION kbchat_session(uuid, integer, boolean);--> statement-breakpoint
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
--> statement-breakpoint
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
