-- Who may read what, decided by Postgres (row-level security; the policies are declared with
-- the tables in workers/knowledge/src/db/schema.ts and created by the next migration).
--
-- The workers log in as a role that is a member of kbchat_app: not the owner of any table, not
-- a superuser, not BYPASSRLS, so every policy applies to everything they run. The login itself
-- is made outside migrations (it has a password): `npm run db:migrate` grants kbchat_app to the
-- role named by APP_DATABASE_ROLE; the local stack makes `kbchat_worker`.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'kbchat_app') THEN
    CREATE ROLE kbchat_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO kbchat_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO kbchat_app;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO kbchat_app;
--> statement-breakpoint
-- Tables and sequences that later migrations create (as the same owner) are granted too.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO kbchat_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO kbchat_app;
--> statement-breakpoint
-- The user the statement acts for: set by kbchat_session (migration 0004), the first statement
-- of every batch a request sends for a user, for that transaction only. Null otherwise.
CREATE FUNCTION kbchat_user() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT nullif(current_setting('kbchat.user_id', true), '')::uuid $$;
--> statement-breakpoint
-- The one file an ingestion step works on: set by kbchat_ingest for that transaction only. The
-- pipeline acts for nobody, so it may see and write that file's rows and nothing else.
CREATE FUNCTION kbchat_ingest_file() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT nullif(current_setting('kbchat.ingest_file', true), '')::uuid $$;
--> statement-breakpoint
CREATE FUNCTION kbchat_ingest(p_file_id uuid) RETURNS void
LANGUAGE sql VOLATILE
AS $$ SELECT set_config('kbchat.ingest_file', p_file_id::text, true); $$;
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
-- The ingestion watchdog's claim (pipeline/watchdog.ts): files whose ingest stopped moving, at
-- most p_limit, marked as looked after now. It acts for no user, so it cannot see files through
-- the policies; this function is the one thing it may do to files in general.
CREATE FUNCTION kbchat_claim_stalled_files(p_stale_seconds integer, p_limit integer)
RETURNS TABLE (id uuid, workflow_id text)
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  UPDATE files f SET updated_at = now()
  WHERE f.id IN (
    SELECT s.id FROM files s
    WHERE s.status IN ('queued', 'processing')
      AND s.updated_at < now() - make_interval(secs => p_stale_seconds)
    ORDER BY s.updated_at
    LIMIT p_limit
    FOR UPDATE SKIP LOCKED
  )
  RETURNING f.id, f.workflow_id
$$;
