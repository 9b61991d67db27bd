CREATE TABLE "page_layouts" (
	"file_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"layout" jsonb NOT NULL,
	CONSTRAINT "page_layouts_file_id_page_pk" PRIMARY KEY("file_id","page")
);
--> statement-breakpoint
DROP INDEX "chunks_file_id_idx";--> statement-breakpoint
ALTER TABLE "file_pages" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "format" text DEFAULT 'pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "content_type" text DEFAULT 'application/pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "pages_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "chunks_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "error_message" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "decoded_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "parsed_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "workflow_id" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "page_layouts" ADD CONSTRAINT "page_layouts_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chunks_file_id_index_key" ON "chunks" USING btree ("file_id","index");--> statement-breakpoint
CREATE INDEX "files_in_progress_idx" ON "files" USING btree ("updated_at") WHERE "files"."status" in ('queued', 'processing');--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_status_check" CHECK ("files"."status" in ('queued', 'processing', 'ready', 'failed'));