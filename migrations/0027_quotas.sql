-- Custom SQL migration file, put your code below! --
-- kbchat_quota: refuses a question (SQLSTATE KBQ01) when the acting user has reached a daily
-- limit of usage_limits (questions or tokens, UTC day). It is a statement of the chat's first
-- batch, after kbchat_session, so the check costs no round trip of its own. MESSAGE names the
-- limit reached; DETAIL is "<used> <limit>". With no daily limit set it reads one row and returns.
-- SECURITY INVOKER: usage_daily's policies let the user read their own rows.
CREATE FUNCTION kbchat_quota() RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = public, pg_temp
AS $$
DECLARE
  lim usage_limits%ROWTYPE;
  used_questions bigint;
  used_tokens bigint;
BEGIN
  SELECT * INTO lim FROM usage_limits WHERE id = 1;
  IF lim.user_daily_questions IS NULL AND lim.user_daily_tokens IS NULL THEN
    RETURN;
  END IF;
  SELECT coalesce(sum(d.questions), 0),
         coalesce(sum(d.embedding_tokens + d.prompt_tokens + d.completion_tokens), 0)
    INTO used_questions, used_tokens
    FROM usage_daily d
   WHERE d.user_id = kbchat_user() AND d.day = (now() AT TIME ZONE 'UTC')::date;
  IF used_questions >= lim.user_daily_questions THEN
    RAISE EXCEPTION 'user_daily_questions'
      USING ERRCODE = 'KBQ01', DETAIL = used_questions || ' ' || lim.user_daily_questions;
  END IF;
  IF used_tokens >= lim.user_daily_tokens THEN
    RAISE EXCEPTION 'user_daily_tokens'
      USING ERRCODE = 'KBQ01', DETAIL = used_tokens || ' ' || lim.user_daily_tokens;
  END IF;
END
$$;
--> statement-breakpoint
-- kbchat_collection_quota: a file row that would take its collection past a per-collection
-- limit of usage_limits (files, bytes of originals) is refused (SQLSTATE KBQ02; MESSAGE names
-- the limit, DETAIL is "<used> <limit>"), in the statement that inserts it. A transaction-wide
-- advisory lock per collection makes two uploads at once count one after the other, and each
-- count is a new snapshot (READ COMMITTED), so both cannot pass. With no collection limit set,
-- no lock and no count. SECURITY DEFINER: every file of the collection counts, not only those
-- the uploader may read.
CREATE FUNCTION kbchat_collection_quota() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  lim usage_limits%ROWTYPE;
  used_files bigint;
  used_bytes bigint;
BEGIN
  SELECT * INTO lim FROM usage_limits WHERE id = 1;
  IF lim.collection_max_files IS NULL AND lim.collection_max_bytes IS NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('kbchat_collection_quota:' || NEW.collection_id::text, 0));
  SELECT count(*), coalesce(sum(f.size), 0) INTO used_files, used_bytes
    FROM files f WHERE f.collection_id = NEW.collection_id;
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
CREATE TRIGGER "files_collection_quota" BEFORE INSERT ON "files" FOR EACH ROW EXECUTE FUNCTION kbchat_collection_quota();
