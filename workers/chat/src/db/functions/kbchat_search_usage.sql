-- kbchat_search_usage: its current definition, last set by migrations/0036_search_usage.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- Adds a search's embedding tokens to today's usage row (UTC day) of the acting user, with the
-- API key it was made with (NULL: a login token; the nil UUID in the row) and the collection
-- it counts under (NULL: none; the max UUID in the row, as the nil UUID is the shared collection).
-- A search is no question: `questions` is untouched. usage_daily is chat's table; this is the
-- one way any worker records a search in it (chat's MCP `search`, knowledge's own search
-- routes), so that the daily token limit (kbchat_quota) counts every search alike.
-- SECURITY INVOKER: usage_daily's policies let the user write their own rows.
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
