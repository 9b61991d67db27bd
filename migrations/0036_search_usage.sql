-- Searches are metered wherever they are made: chat declares the one way to record one
-- (workers/chat/src/db/functions/kbchat_search_usage.sql). And "no collection" in usage_daily
-- becomes the max UUID: the nil UUID it was is the id of the shared collection, so the shared
-- collection's usage and usage counted under no collection were one row and one line of the
-- reports. Rows written before stay as they are: which of the two each was cannot be told; they
-- count as the shared collection's, which their id names.
ALTER TABLE "usage_daily" ALTER COLUMN "collection_id" SET DEFAULT 'ffffffff-ffff-ffff-ffff-ffffffffffff';--> statement-breakpoint
CREATE FUNCTION kbchat_search_usage(p_key uuid, p_collection uuid, p_embedding_tokens bigint)
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = public, pg_temp
AS $$
  INSERT INTO usage_daily (day, user_id, key_id, collection_id, embedding_tokens)
  VALUES (
    (now() AT TIME ZONE 'UTC')::date,
    kbchat_user(),
    coalesce(p_key, '00000000-0000-0000-0000-000000000000'),
    coalesce(p_collection, 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    p_embedding_tokens
  )
  ON CONFLICT (day, user_id, key_id, collection_id) DO UPDATE
    SET embedding_tokens = usage_daily.embedding_tokens + excluded.embedding_tokens
$$;
