-- Official answers follow a change of embedding model: chat re-embeds the questions of those
-- made by another model as it meets them (workers/chat/src/db/functions/kbchat_official_reembedded.sql).
CREATE FUNCTION kbchat_official_reembedded(p_model text, p_rows jsonb) RETURNS integer
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  WITH changed AS (
    UPDATE official_answers o SET
      embedding = (r->>'embedding')::vector,
      embedding_model = p_model
    FROM jsonb_array_elements(p_rows) r
    WHERE o.id = (r->>'id')::uuid
      AND o.question = r->>'question'
      AND o.embedding_model <> p_model
      AND o.collection_id = any((SELECT kbchat_collections('viewer'))::uuid[])
    RETURNING o.id
  )
  SELECT count(*)::integer FROM changed
$$;
