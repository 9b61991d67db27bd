-- A limit on the bytes of originals one user stores, over every collection (usage_limits.user_max_bytes),
-- counted by a trigger on the insert of a file (kbchat_user_storage_quota); the uploader index it sums by.
ALTER TABLE "usage_limits" ADD COLUMN "user_max_bytes" bigint;--> statement-breakpoint
CREATE INDEX "files_uploader_idx" ON "files" USING btree ("uploader_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION kbchat_user_storage_quota() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  lim bigint;
  used_bytes bigint;
BEGIN
  SELECT user_max_bytes INTO lim FROM usage_limits WHERE id = 1;
  IF lim IS NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('kbchat_user_storage_quota:' || NEW.uploader_id::text, 0));
  SELECT coalesce(sum(f.size), 0) INTO used_bytes
    FROM files f WHERE f.uploader_id = NEW.uploader_id AND f.id <> NEW.id;
  IF used_bytes + NEW.size > lim THEN
    RAISE EXCEPTION 'user_max_bytes'
      USING ERRCODE = 'KBQ03', DETAIL = used_bytes || ' ' || lim;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "files_user_storage_quota" BEFORE INSERT ON "files" FOR EACH ROW EXECUTE FUNCTION kbchat_user_storage_quota();
