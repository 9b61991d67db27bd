CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"key_id" uuid,
	"address" text,
	"action" text NOT NULL,
	"object_type" text,
	"object_id" text,
	"object_label" text,
	"outcome" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oidc_logins" (
	"state" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"return_to" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"user_id" uuid NOT NULL,
	"key_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL,
	"collection_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL,
	"questions" integer DEFAULT 0 NOT NULL,
	"embedding_tokens" bigint DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_day_user_id_key_id_collection_id_pk" PRIMARY KEY("day","user_id","key_id","collection_id")
);
--> statement-breakpoint
ALTER TABLE "usage_daily" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "usage_limits" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"user_daily_tokens" bigint,
	"user_daily_questions" integer,
	"collection_max_bytes" bigint,
	"collection_max_files" integer,
	"audit_questions" boolean DEFAULT true NOT NULL,
	"audit_retention_days" integer DEFAULT 1095 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_limits_one_row" CHECK ("usage_limits"."id" = 1),
	CONSTRAINT "usage_limits_retention_check" CHECK ("usage_limits"."audit_retention_days" >= 30)
);
--> statement-breakpoint
ALTER TABLE "usage_limits" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_object_idx" ON "audit_events" USING btree ("object_type","object_id");--> statement-breakpoint
CREATE INDEX "oidc_logins_created_idx" ON "oidc_logins" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "usage_daily_user_day_idx" ON "usage_daily" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "usage_daily_day_idx" ON "usage_daily" USING btree ("day");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_subject_key" ON "users" USING btree ("oidc_issuer","oidc_subject") WHERE "users"."oidc_subject" is not null;--> statement-breakpoint
CREATE POLICY "audit_events_super_admin_read" ON "audit_events" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ((select current_setting('kbchat.role', true)) = 'SUPER_ADMIN');--> statement-breakpoint
CREATE POLICY "usage_daily_own" ON "usage_daily" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("usage_daily"."user_id" = (select kbchat_user())) WITH CHECK ("usage_daily"."user_id" = (select kbchat_user()));--> statement-breakpoint
CREATE POLICY "usage_daily_super_admin_read" ON "usage_daily" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ((select current_setting('kbchat.role', true)) = 'SUPER_ADMIN');--> statement-breakpoint
CREATE POLICY "usage_limits_read" ON "usage_limits" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING (true);--> statement-breakpoint
CREATE POLICY "usage_limits_write" ON "usage_limits" AS PERMISSIVE FOR UPDATE TO "kbchat_app" USING ((select current_setting('kbchat.role', true)) = 'SUPER_ADMIN') WITH CHECK ((select current_setting('kbchat.role', true)) = 'SUPER_ADMIN');--> statement-breakpoint
INSERT INTO "usage_limits" ("id") VALUES (1);--> statement-breakpoint
-- The audit trail is append-only for the workers: kbchat_audit writes it, nothing changes it.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON "audit_events" FROM kbchat_app;--> statement-breakpoint
REVOKE INSERT, DELETE, TRUNCATE ON "usage_limits" FROM kbchat_app;--> statement-breakpoint
-- kbchat_audit_text: the canonical text of an audit record, which its hash covers (with the hash
-- of the record before). jsonb's text form is deterministic: the same row always reads the same.
CREATE FUNCTION kbchat_audit_text(r audit_events)
RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
  SELECT jsonb_build_array(
    r.id, (extract(epoch FROM r.at) * 1000000)::bigint, r.actor_id, r.actor_name, r.key_id,
    r.address, r.action, r.object_type, r.object_id, r.object_label, r.outcome, r.detail
  )::text
$$;--> statement-breakpoint
-- kbchat_audit: appends one record to the audit trail and answers its id. Records are chained:
-- each hash is SHA-256(hash of the record before || canonical text), the first one's "before"
-- is 64 zeros. An advisory lock held to the end of the transaction orders the appends, so ids,
-- chain and commit order agree. SECURITY DEFINER: the workers' role cannot write the table.
CREATE FUNCTION kbchat_audit(
  p_action text, p_outcome text, p_actor_id uuid, p_actor_name text, p_key_id uuid,
  p_address text, p_object_type text, p_object_id text, p_object_label text, p_detail jsonb
)
RETURNS bigint
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  r audit_events%ROWTYPE;
BEGIN
  IF p_outcome NOT IN ('ok', 'denied', 'failed') THEN
    RAISE EXCEPTION 'audit outcome % is not ok, denied or failed', p_outcome USING ERRCODE = '22023';
  END IF;
  PERFORM pg_advisory_xact_lock(7469001);
  r.prev_hash := coalesce(
    (SELECT a.hash FROM audit_events a ORDER BY a.id DESC LIMIT 1),
    repeat('0', 64)
  );
  r.id := nextval(pg_get_serial_sequence('audit_events', 'id'));
  r.at := now();
  r.actor_id := p_actor_id;
  r.actor_name := left(p_actor_name, 200);
  r.key_id := p_key_id;
  r.address := left(p_address, 100);
  r.action := p_action;
  r.object_type := p_object_type;
  r.object_id := left(p_object_id, 200);
  r.object_label := left(p_object_label, 500);
  r.outcome := p_outcome;
  r.detail := coalesce(p_detail, '{}'::jsonb);
  r.hash := encode(sha256(convert_to(r.prev_hash || kbchat_audit_text(r), 'UTF8')), 'hex');
  INSERT INTO audit_events OVERRIDING SYSTEM VALUE SELECT r.*;
  RETURN r.id;
END
$$;--> statement-breakpoint
DROP FUNCTION kbchat_key_session(text);--> statement-breakpoint
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
