-- kbchat_claim_stalled_files: its current definition, last set by migrations/0018_ingest_revivals.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
CREATE FUNCTION kbchat_claim_stalled_files(p_stale_seconds integer, p_limit integer, p_max_revivals integer)
RETURNS TABLE (id uuid, workflow_id text, gave_up boolean)
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  UPDATE files f SET
    updated_at = now(),
    revivals = CASE WHEN f.revivals >= p_max_revivals THEN f.revivals ELSE f.revivals + 1 END,
    status = CASE WHEN f.revivals >= p_max_revivals THEN 'failed' ELSE f.status END,
    error_code = CASE WHEN f.revivals >= p_max_revivals THEN 'ingest_gave_up' ELSE f.error_code END,
    error_message = CASE WHEN f.revivals >= p_max_revivals
      THEN 'Processing the file stopped ' || (f.revivals + 1) || ' times at the same point, so it was given up. The file may need more memory or time than allowed: save it again (for example as PDF or plain text), or split it, and upload it again.'
      ELSE f.error_message END
  WHERE f.id IN (
    SELECT s.id FROM files s
    WHERE s.status IN ('queued', 'processing')
      AND s.updated_at < now() - make_interval(secs => p_stale_seconds)
    ORDER BY s.updated_at
    LIMIT p_limit
    FOR UPDATE SKIP LOCKED
  )
  RETURNING f.id, f.workflow_id, f.status = 'failed'
$$;
