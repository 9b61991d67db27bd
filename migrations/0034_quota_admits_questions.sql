CREATE TABLE "usage_admitted" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"questions" integer NOT NULL,
	CONSTRAINT "usage_admitted_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "usage_admitted" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "usage_admitted_own" ON "usage_admitted" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("usage_admitted"."user_id" = (select kbchat_user())) WITH CHECK ("usage_admitted"."user_id" = (select kbchat_user()));--> statement-breakpoint
-- kbchat_quota admitted questions by reading the day's count, written only after each answer:
-- questions asked at once all passed. It now counts a question as it admits it (usage_admitted,
-- under the row's lock), so they are admitted one after the other, never past the limit.
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
