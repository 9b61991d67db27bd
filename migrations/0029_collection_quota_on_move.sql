-- Custom SQL migration file, put your code below! --
-- kbchat_collection_quota counted only inserted files: moving a file into a collection at its
-- limit (an UPDATE of collection_id) passed. It now counts a move too, the same way, and the
-- trigger fires on an update of collection_id (any other change of a file is never counted).
CREATE OR REPLACE FUNCTION kbchat_collection_quota() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  lim usage_limits%ROWTYPE;
  used_files bigint;
  used_bytes bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.collection_id IS NOT DISTINCT FROM OLD.collection_id THEN
    RETURN NEW;
  END IF;
  SELECT * INTO lim FROM usage_limits WHERE id = 1;
  IF lim.collection_max_files IS NULL AND lim.collection_max_bytes IS NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('kbchat_collection_quota:' || NEW.collection_id::text, 0));
  SELECT count(*), coalesce(sum(f.size), 0) INTO used_files, used_bytes
    FROM files f WHERE f.collection_id = NEW.collection_id AND f.id <> NEW.id;
  IF used_files + 1 > lim.collection_max_files THEN
    RAISE EXCEPTION 'collection_max_files'
      USING ERRCODE = 'KBQ02', DETAIL = used_files || ' ' || lim.collection_max_files;
  END IF;
  IF used_bytes + NEW.size > lim.collection_max_bytes THEN
    RAISE EXCEPTION 'collection_max_bytes'
      USING ERRCODE = 'KBQ02', DETAIL = used_bytes || ' ' || lim.collection_max_bytes;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
DROP TRIGGER "files_collection_quota" ON "files";--> statement-breakpoint
CREATE TRIGGER "files_collection_quota" BEFORE INSERT OR UPDATE OF "collection_id" ON "files" FOR EACH ROW EXECUTE FUNCTION kbchat_collection_quota();