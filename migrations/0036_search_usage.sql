-- Searches are metered wherever they are made: chat declares the one way to record one
-- (workers/chat/src/db/functions/kbchat_search_usage.sql).
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
    coalesce(p_collection, '00000000-0000-0000-0000-000000000000'),
    p_embedding_tokens
  )
  ON CONFLICT (day, user_id, key_id, collection_id) DO UPDATE
    SET embedding_tokens = usage_daily.embedding_tokens + excluded.embedding_tokens
$$;
