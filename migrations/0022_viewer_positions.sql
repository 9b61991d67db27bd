ALTER TABLE "messages" ADD COLUMN "support" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "char_start" integer;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "char_end" integer;--> statement-breakpoint
ALTER TABLE "file_pages" ADD COLUMN "width" real;--> statement-breakpoint
ALTER TABLE "file_pages" ADD COLUMN "height" real;--> statement-breakpoint
ALTER TABLE "file_pages" ADD COLUMN "lines" jsonb;