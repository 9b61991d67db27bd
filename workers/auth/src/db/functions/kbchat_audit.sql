-- kbchat_audit: its current definition, last set by migrations/0026_organisation.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- kbchat_audit: appends one record to the audit trail and answers its id. Records are chained:
-- each hash is SHA-256(hash of the record before || canonical text), the first one's "before"
-- is 64 zeros. An advisory lock held to the end of the transaction orders the appends, so ids,
-- chain and commit order agree. SECURITY DEFINER: the workers' role cannot write the table.
CREATE FUNCTION kbchat_audit(
  p_action text, p_outcome text, p_actor_id uuid, p_actor_name text, p_key_id uuid,
  p_address text, p_object_type text, p_object_id text, p_object_label text, p_detail jsonb
)
RETURNS bigint
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  r audit_events%ROWTYPE;
BEGIN
  IF p_outcome NOT IN ('ok', 'denied', 'failed') THEN
    RAISE EXCEPTION 'audit outcome % is not ok, denied or failed', p_outcome USING ERRCODE = '22023';
  END IF;
  PERFORM pg_advisory_xact_lock(7469001);
  r.prev_hash := coalesce(
    (SELECT a.hash FROM audit_events a ORDER BY a.id DESC LIMIT 1),
    repeat('0', 64)
  );
  r.id := nextval(pg_get_serial_sequence('audit_events', 'id'));
  r.at := now();
  r.actor_id := p_actor_id;
  r.actor_name := left(p_actor_name, 200);
  r.key_id := p_key_id;
  r.address := left(p_address, 100);
  r.action := p_action;
  r.object_type := p_object_type;
  r.object_id := left(p_object_id, 200);
  r.object_label := left(p_object_label, 500);
  r.outcome := p_outcome;
  r.detail := coalesce(p_detail, '{}'::jsonb);
  r.hash := encode(sha256(convert_to(r.prev_hash || kbchat_audit_text(r), 'UTF8')), 'hex');
  INSERT INTO audit_events OVERRIDING SYSTEM VALUE SELECT r.*;
  RETURN r.id;
END
$$;
