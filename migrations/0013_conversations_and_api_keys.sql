CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid DEFAULT kbchat_user() NOT NULL,
	"title" text NOT NULL,
	"file_ids" uuid[],
	"collection_ids" uuid[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"user_id" uuid DEFAULT kbchat_user() NOT NULL,
	"question" text NOT NULL,
	"retrieval_question" text NOT NULL,
	"answer" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"usage" jsonb,
	"mode" text,
	"language" text NOT NULL,
	"feedback" text,
	"feedback_comment" text,
	"feedback_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_status_check" CHECK ("messages"."status" in ('complete', 'incomplete', 'refused', 'failed')),
	CONSTRAINT "messages_feedback_check" CHECK ("messages"."feedback" in ('helpful', 'unhelpful'))
);
--> statement-breakpoint
ALTER TABLE "messages" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "conversations_user_updated_idx" ON "conversations" USING btree ("user_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_conversation_created_idx" ON "messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_unhelpful_idx" ON "messages" USING btree ("feedback_at" DESC NULLS LAST) WHERE "messages"."feedback" = 'unhelpful';--> statement-breakpoint
CREATE POLICY "conversations_own" ON "conversations" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("conversations"."user_id" = (select kbchat_user())) WITH CHECK ("conversations"."user_id" = (select kbchat_user()));--> statement-breakpoint
CREATE POLICY "messages_own" ON "messages" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("messages"."user_id" = (select kbchat_user())) WITH CHECK ("messages"."user_id" = (select kbchat_user()) and "messages"."conversation_id" in (select id from conversations));--> statement-breakpoint
CREATE POLICY "messages_review" ON "messages" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("messages"."feedback" = 'unhelpful' and (select current_setting('kbchat.role', true)) = 'SUPER_ADMIN');--> statement-breakpoint
-- A deleted user's conversations go with them (users belong to auth; written here by hand).
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade;
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade;
--> statement-breakpoint
-- The session of an API key (shared/auth/api-key.ts), as kbchat_session is a token's: the key's
-- user as they are now, refused (KBS01) when the key is unknown or revoked (deleted) or the user
-- disabled or deleted; it sets kbchat.user_id / kbchat.role for the statements after it, and
-- answers the user's session epoch so that the call's later batches check that session as a
-- token's are checked. `last_used_at` is written at most once a minute per key.
-- SECURITY DEFINER: the workers' role needs no access to api_keys or users for it.
CREATE FUNCTION kbchat_key_session(p_hash text)
RETURNS TABLE (id uuid, username text, is_super_admin boolean, created_at timestamptz, session_epoch integer)
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  u users%ROWTYPE;
  k api_keys%ROWTYPE;
BEGIN
  SELECT * INTO k FROM api_keys WHERE api_keys.hash = p_hash;
  IF NOT FOUND THEN
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
  RETURN QUERY SELECT u.id, u.username, u.is_super_admin, u.created_at, u.session_epoch;
END
$$;
