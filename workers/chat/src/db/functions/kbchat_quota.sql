-- kbchat_quota: its current definition, last set by migrations/0034_quota_admits_questions.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- Refuses a question or a search (SQLSTATE KBQ01) when the acting user has reached a daily
-- limit of usage_limits (UTC day): questions (a question only: `kbchat_quota()`) or tokens (a
-- question, and a search: `kbchat_quota(false)`; a search embeds its question but is not a
-- question). It is a statement of the chat's first batch, after kbchat_session, so the check
-- costs no round trip of its own. MESSAGE names the limit reached; DETAIL is "<used> <limit>".
-- A question is counted as it is admitted, in usage_admitted (today's row of the user, locked
-- by the upsert, so that questions asked at once are admitted one after the other and never
-- past the limit; usage_daily, written after the answer, would let them all through); a refusal
-- rolls its count back with the batch. A question admitted counts even if it then fails.
-- With no limit that applies set it reads one row and returns.
-- SECURITY INVOKER: usage_daily's and usage_admitted's policies let the user read and write
-- their own rows.
CREATE OR REPLACE FUNCTION kbchat_quota(is_question boolean DEFAULT true) RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = public, pg_temp
AS $$
DECLARE
  lim usage_limits%ROWTYPE;
  today date := (now() AT TIME ZONE 'UTC')::date;
  used_questions bigint;
  used_tokens bigint;
  admitted integer;
BEGIN
  SELECT * INTO lim FROM usage_limits WHERE id = 1;
  IF (lim.user_daily_questions IS NULL OR NOT is_question) AND lim.user_daily_tokens IS NULL THEN
    RETURN;
  END IF;
  SELECT coalesce(sum(d.questions), 0),
         coalesce(sum(d.embedding_tokens + d.prompt_tokens + d.completion_tokens), 0)
    INTO used_questions, used_tokens
    FROM usage_daily d
   WHERE d.user_id = kbchat_user() AND d.day = today;
  IF is_question AND lim.user_daily_questions IS NOT NULL THEN
    INSERT INTO usage_admitted AS a (user_id, day, questions)
      VALUES (kbchat_user(), today, used_questions + 1)
      ON CONFLICT (user_id, day) DO UPDATE SET questions = greatest(a.questions, used_questions) + 1
      RETURNING a.questions INTO admitted;
    IF admitted > lim.user_daily_questions THEN
      RAISE EXCEPTION 'user_daily_questions'
        USING ERRCODE = 'KBQ01', DETAIL = (admitted - 1) || ' ' || lim.user_daily_questions;
    END IF;
    DELETE FROM usage_admitted WHERE user_id = kbchat_user() AND day < today;
  END IF;
  IF used_tokens >= lim.user_daily_tokens THEN
    RAISE EXCEPTION 'user_daily_tokens'
      USING ERRCODE = 'KBQ01', DETAIL = used_tokens || ' ' || lim.user_daily_tokens;
  END IF;
END
$$;
