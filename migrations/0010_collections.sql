CREATE TABLE "collection_members" (
	"collection_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"username" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_members_collection_id_user_id_pk" PRIMARY KEY("collection_id","user_id"),
	CONSTRAINT "collection_members_role_check" CHECK ("collection_members"."role" in ('viewer', 'editor', 'owner'))
);
--> statement-breakpoint
ALTER TABLE "collection_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "collections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collections" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
-- The shared collection: every file so far, and every upload that names no collection.
INSERT INTO "collections" ("id", "name", "description") VALUES ('00000000-0000-0000-0000-000000000000', 'Shared', 'The knowledge base every user reads and uploads to.');--> statement-breakpoint
CREATE TRIGGER "collections_creator_is_owner" AFTER INSERT ON "collections" FOR EACH ROW EXECUTE FUNCTION kbchat_collection_created();--> statement-breakpoint
ALTER TABLE "chunks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "file_pages" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "files" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "page_layouts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "chunks" DROP CONSTRAINT "chunks_file_id_files_id_fk";
--> statement-breakpoint
DROP INDEX "files_sha256_key";--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "collection_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "collection_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_id_collection_key" UNIQUE("id","collection_id");--> statement-breakpoint
ALTER TABLE "collection_members" ADD CONSTRAINT "collection_members_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_members_user_idx" ON "collection_members" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_file_fk" FOREIGN KEY ("file_id","collection_id") REFERENCES "public"."files"("id","collection_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_collection_sha256_key" ON "files" USING btree ("collection_id","sha256");--> statement-breakpoint
CREATE POLICY "chunks_read" ON "chunks" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("chunks"."collection_id" = any((select kbchat_collections('viewer'))::uuid[]) or "chunks"."file_id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "chunks_ingest" ON "chunks" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("chunks"."file_id" = (select kbchat_ingest_file())) WITH CHECK ("chunks"."file_id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "file_pages_read" ON "file_pages" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("file_pages"."file_id" in (select id from files));--> statement-breakpoint
CREATE POLICY "file_pages_ingest" ON "file_pages" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("file_pages"."file_id" = (select kbchat_ingest_file())) WITH CHECK ("file_pages"."file_id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "files_read" ON "files" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("files"."collection_id" = any((select kbchat_collections('viewer'))::uuid[]) or "files"."id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "files_upload" ON "files" AS PERMISSIVE FOR INSERT TO "kbchat_app" WITH CHECK ("files"."collection_id" = any((select kbchat_collections('editor'))::uuid[]) and "files"."uploader_id" = (select kbchat_user()));--> statement-breakpoint
CREATE POLICY "files_manage" ON "files" AS PERMISSIVE FOR UPDATE TO "kbchat_app" USING (("files"."collection_id" = any((select kbchat_collections('editor'))::uuid[]) and ("files"."collection_id" <> '00000000-0000-0000-0000-000000000000'::uuid or "files"."uploader_id" = (select kbchat_user()) or '00000000-0000-0000-0000-000000000000'::uuid = any((select kbchat_collections('owner'))::uuid[]))) or "files"."id" = (select kbchat_ingest_file())) WITH CHECK ("files"."collection_id" = any((select kbchat_collections('editor'))::uuid[]) or "files"."id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "files_delete" ON "files" AS PERMISSIVE FOR DELETE TO "kbchat_app" USING (("files"."collection_id" = any((select kbchat_collections('editor'))::uuid[]) and ("files"."collection_id" <> '00000000-0000-0000-0000-000000000000'::uuid or "files"."uploader_id" = (select kbchat_user()) or '00000000-0000-0000-0000-000000000000'::uuid = any((select kbchat_collections('owner'))::uuid[]))));--> statement-breakpoint
CREATE POLICY "page_layouts_read" ON "page_layouts" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("page_layouts"."file_id" in (select id from files));--> statement-breakpoint
CREATE POLICY "page_layouts_ingest" ON "page_layouts" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("page_layouts"."file_id" = (select kbchat_ingest_file())) WITH CHECK ("page_layouts"."file_id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "collection_members_read" ON "collection_members" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("collection_members"."collection_id" = any((select kbchat_collections('viewer'))::uuid[]));--> statement-breakpoint
CREATE POLICY "collection_members_manage" ON "collection_members" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("collection_members"."collection_id" = any((select kbchat_collections('owner'))::uuid[]) and "collection_members"."collection_id" <> '00000000-0000-0000-0000-000000000000'::uuid) WITH CHECK ("collection_members"."collection_id" = any((select kbchat_collections('owner'))::uuid[]) and "collection_members"."collection_id" <> '00000000-0000-0000-0000-000000000000'::uuid);--> statement-breakpoint
CREATE POLICY "collections_read" ON "collections" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("collections"."id" = any((select kbchat_collections('viewer'))::uuid[]));--> statement-breakpoint
CREATE POLICY "collections_create" ON "collections" AS PERMISSIVE FOR INSERT TO "kbchat_app" WITH CHECK ("collections"."created_by" = (select kbchat_user()));--> statement-breakpoint
CREATE POLICY "collections_manage" ON "collections" AS PERMISSIVE FOR UPDATE TO "kbchat_app" USING ("collections"."id" = any((select kbchat_collections('owner'))::uuid[]));--> statement-breakpoint
CREATE POLICY "collections_delete" ON "collections" AS PERMISSIVE FOR DELETE TO "kbchat_app" USING ("collections"."id" = any((select kbchat_collections('owner'))::uuid[]) and "collections"."id" <> '00000000-0000-0000-0000-000000000000'::uuid);--> statement-breakpoint
-- A deleted user's memberships go with them (users belong to auth; written here by hand).
ALTER TABLE "collection_members" ADD CONSTRAINT "collection_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade;
--> statement-breakpoint
-- A collection keeps at least one owner: a change or removal that would leave none fails
-- (SQLSTATE KBC01, answered 409), unless the collection or the user is being deleted. The
-- collection's row is locked first, so two owners demoting each other at once cannot both win.
CREATE FUNCTION kbchat_keep_an_owner() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
BEGIN
  IF OLD.role <> 'owner' OR (TG_OP = 'UPDATE' AND NEW.role = 'owner') THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM collections WHERE id = OLD.collection_id FOR UPDATE;
  IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM collection_members WHERE collection_id = OLD.collection_id AND role = 'owner'
  ) THEN
    RAISE EXCEPTION 'a collection keeps at least one owner' USING ERRCODE = 'KBC01';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "collection_members_keep_an_owner" AFTER UPDATE OR DELETE ON "collection_members" FOR EACH ROW EXECUTE FUNCTION kbchat_keep_an_owner();
