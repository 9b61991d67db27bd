-- Custom SQL migration file, put your code below! --
-- kbchat_quota checks a search too (MCP `search` embeds its question: model tokens). A search
-- is not a question: kbchat_quota(false) checks the token limit alone; kbchat_quota() (a
-- question) checks both, as before. A new argument is a new signature, so the function is
-- dropped and made again (in this migration's transaction: no call sees it missing).
DROP FUNCTION kbchat_quota();
--> statement-breakpoint
-- kbchat_quota: refuses a question or a search (SQLSTATE KBQ01) when the acting user has
-- reached a daily limit of usage_limits (UTC day): questions (a question only) or tokens. It is a
-- statement of the chat's first batch, after kbchat_session, so the check costs no round trip
-- of its own. MESSAGE names the limit reached; DETAIL is "<used> <limit>". With no limit that
-- applies set it reads one row and returns.
-- SECURITY INVOKER: usage_daily's policies let the user read their own rows.
CREATE FUNCTION kbchat_quota(is_question boolean DEFAULT true) RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = public, pg_temp
AS $$
DECLARE
  lim usage_limits%ROWTYPE;
  used_questions bigint;
  used_tokens bigint;
BEGIN
  SELECT * INTO lim FROM usage_limits WHERE id = 1;
  IF (lim.user_daily_questions IS NULL OR NOT is_question) AND lim.user_daily_tokens IS NULL THEN
    RETURN;
  END IF;
  SELECT coalesce(sum(d.questions), 0),
         coalesce(sum(d.embedding_tokens + d.prompt_tokens + d.completion_tokens), 0)
    INTO used_questions, used_tokens
    FROM usage_daily d
   WHERE d.user_id = kbchat_user() AND d.day = (now() AT TIME ZONE 'UTC')::date;
  IF is_question AND used_questions >= lim.user_daily_questions THEN
    RAISE EXCEPTION 'user_daily_questions'
      USING ERRCODE = 'KBQ01', DETAIL = used_questions || ' ' || lim.user_daily_questions;
  END IF;
  IF used_tokens >= lim.user_daily_tokens THEN
    RAISE EXCEPTION 'user_daily_tokens'
      USING ERRCODE = 'KBQ01', DETAIL = used_tokens || ' ' || lim.user_daily_tokens;
  END IF;
END
$$;
