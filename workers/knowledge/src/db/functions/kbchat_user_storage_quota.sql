-- kbchat_user_storage_quota: its current definition, last set by
-- migrations/0038_user_storage_quota.sql. To change it, write a migration that replaces it
-- and change this file to match (dev/sql-functions.test.ts checks that they agree).
--
-- A new file row that would take its uploader past usage_limits.user_max_bytes (bytes of
-- originals one user has stored, over every collection: each version and failed file too, as
-- each is kept in storage) is refused (SQLSTATE KBQ03; MESSAGE names the limit, DETAIL is
-- "<used> <limit>"), in the statement that inserts it. A per-collection limit alone lets one
-- user fill the storage through many collections; this one does not. Only inserts count: a
-- move changes no one's stored bytes. A transaction-wide advisory lock per uploader makes two
-- uploads at once count one after the other (each count a new snapshot, READ COMMITTED). With
-- no limit set, no lock and no count. SECURITY DEFINER: every file of the uploader counts, also
-- those in collections they have since left.
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
