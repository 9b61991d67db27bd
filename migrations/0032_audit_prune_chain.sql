-- Custom SQL migration file, put your code below! --
-- kbchat_audit_prune: removes the audit records older than the retention
-- (usage_limits.audit_retention_days, at least 30, default 1095) and records an auth.audit_prune
-- event naming how many and the id and hash of the last removed record: verification then
-- starts from the first kept record, whose prev_hash is that hash. Runs at most once a UTC day
-- (answers null when today's prune is done). Only a prefix of the chain goes: every record
-- before the first one inside the retention, so the kept records stay one unbroken chain.
-- Its own record is appended before the removal, so it chains to the newest record like any
-- append: when every record was older than the retention, that is the last removed one, whose
-- hash it then carries as prev_hash (migration 0028 removed first and started from 64 zeros).
-- The append lock (kbchat_audit's) is held to the end, so no record is appended meanwhile.
-- SECURITY DEFINER: the workers' role cannot delete from audit_events.
CREATE OR REPLACE FUNCTION kbchat_audit_prune()
RETURNS bigint
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  v_days integer;
  v_cutoff timestamptz;
  v_keep_from bigint;
  v_removed bigint;
  v_last audit_events%ROWTYPE;
BEGIN
  PERFORM pg_advisory_xact_lock(7469001);
  IF EXISTS (
    SELECT 1 FROM audit_events a
    WHERE a.action = 'auth.audit_prune'
      AND a.at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
  ) THEN
    RETURN NULL;
  END IF;
  v_days := coalesce((SELECT l.audit_retention_days FROM usage_limits l WHERE l.id = 1), 1095);
  v_cutoff := now() - make_interval(days => v_days);
  v_keep_from := coalesce(
    (SELECT min(a.id) FROM audit_events a WHERE a.at >= v_cutoff),
    (SELECT max(a.id) + 1 FROM audit_events a),
    1
  );
  SELECT * INTO v_last FROM audit_events a WHERE a.id < v_keep_from ORDER BY a.id DESC LIMIT 1;
  SELECT count(*) INTO v_removed FROM audit_events a WHERE a.id < v_keep_from;
  -- Its id comes after every record there, so the removal below never reaches it.
  PERFORM kbchat_audit(
    'auth.audit_prune', 'ok', NULL, NULL, NULL, NULL, 'audit_events', NULL, NULL,
    jsonb_build_object(
      'removed', v_removed,
      'retention_days', v_days,
      'before', v_cutoff,
      'last_removed_id', v_last.id,
      'last_removed_hash', v_last.hash
    )
  );
  DELETE FROM audit_events a WHERE a.id < v_keep_from;
  RETURN v_removed;
END
$$;
