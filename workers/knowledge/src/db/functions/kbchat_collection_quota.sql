-- kbchat_collection_quota: its current definition, last set by
-- migrations/0029_collection_quota_on_move.sql. To change it, write a migration that replaces it
-- and change this file to match (dev/sql-functions.test.ts checks that they agree).
--
-- A file row that would take its collection past a per-collection limit of usage_limits (files,
-- bytes of originals) is refused (SQLSTATE KBQ02; MESSAGE names the limit, DETAIL is
-- "<used> <limit>"), in the statement that inserts it or moves it there (the trigger fires on
-- INSERT and on UPDATE OF collection_id; an update that keeps the collection is never counted).
-- A transaction-wide advisory lock per collection makes two uploads or moves at once count one
-- after the other, and each count is a new snapshot (READ COMMITTED), so both cannot pass. With
-- no collection limit set, no lock and no count. SECURITY DEFINER: every file of the collection
-- counts, not only those the uploader may read.
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
