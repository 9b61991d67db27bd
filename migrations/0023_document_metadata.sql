CREATE TABLE "file_relations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"file_id" uuid NOT NULL,
	"relation" text NOT NULL,
	"target_file_id" uuid,
	"target_doc_number" text,
	"target_title" text,
	"origin" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_relations_relation_check" CHECK ("file_relations"."relation" in ('amends', 'repeals', 'replaces', 'implements')),
	CONSTRAINT "file_relations_origin_check" CHECK ("file_relations"."origin" in ('extracted', 'person')),
	CONSTRAINT "file_relations_names_check" CHECK ("file_relations"."target_file_id" is not null or "file_relations"."target_doc_number" is not null or "file_relations"."target_title" is not null)
);
--> statement-breakpoint
ALTER TABLE "file_relations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "heading_path" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "doc_number" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "issuers" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "issued_on" date;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "effective_on" date;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "expires_on" date;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "doc_type" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "metadata_origin" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "file_relations" ADD CONSTRAINT "file_relations_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_relations" ADD CONSTRAINT "file_relations_target_file_id_files_id_fk" FOREIGN KEY ("target_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_relations_file_idx" ON "file_relations" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "file_relations_target_idx" ON "file_relations" USING btree ("target_file_id");--> statement-breakpoint
CREATE INDEX "files_doc_number_idx" ON "files" USING btree ("doc_number");--> statement-breakpoint
CREATE POLICY "file_relations_read" ON "file_relations" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("file_relations"."file_id" in (select id from files));--> statement-breakpoint
CREATE POLICY "file_relations_ingest" ON "file_relations" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("file_relations"."file_id" = (select kbchat_ingest_file())) WITH CHECK ("file_relations"."file_id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "file_relations_manage" ON "file_relations" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("file_relations"."file_id" in (select f.id from files f where (f.collection_id = any((select kbchat_collections('editor'))::uuid[]) and (f.collection_id <> '00000000-0000-0000-0000-000000000000'::uuid or f.uploader_id = (select kbchat_user()) or '00000000-0000-0000-0000-000000000000'::uuid = any((select kbchat_collections('owner'))::uuid[]))))) WITH CHECK ("file_relations"."file_id" in (select f.id from files f where (f.collection_id = any((select kbchat_collections('editor'))::uuid[]) and (f.collection_id <> '00000000-0000-0000-0000-000000000000'::uuid or f.uploader_id = (select kbchat_user()) or '00000000-0000-0000-0000-000000000000'::uuid = any((select kbchat_collections('owner'))::uuid[])))) and ("file_relations"."target_file_id" is null or "file_relations"."target_file_id" in (select id from files)));