-- kbchat_official_reembedded: its current definition, last set by migrations/0035_official_answers_follow_model.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- Stores the vectors chat made, with the configured embedding model, for official answers whose
-- question was embedded by another model (official/match.ts, the first question after a change
-- of model that searches their collection). The asker is often a reader, whom the policies do
-- not let write official answers: hence SECURITY DEFINER, and these guards in its place. A row
-- changes only when the acting user reads its collection, it is still of another model, and its
-- question is still the text that was embedded; so an owner's edit made meanwhile (embedded by
-- the configured model) is never overwritten. Each of `p_rows`: {id, question, embedding}, the
-- embedding as a JSON array of numbers. Answers how many rows it changed.
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
