ALTER TABLE "file_pages" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "file_pages" ADD COLUMN "repairs" integer;--> statement-breakpoint
ALTER TABLE "file_pages" ADD COLUMN "ocr_confidence" real;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "ocr_pages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "ocr_pages_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "ocr_confidence" real;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "repaired_pages" integer DEFAULT 0 NOT NULL;