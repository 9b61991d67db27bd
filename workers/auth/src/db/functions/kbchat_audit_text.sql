-- kbchat_audit_text: its current definition, last set by migrations/0026_organisation.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
--
-- kbchat_audit_text: the canonical text of an audit record, which its hash covers (with the hash
-- of the record before). jsonb's text form is deterministic: the same row always reads the same.
CREATE FUNCTION kbchat_audit_text(r audit_events)
RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
  SELECT jsonb_build_array(
    r.id, (extract(epoch FROM r.at) * 1000000)::bigint, r.actor_id, r.actor_name, r.key_id,
    r.address, r.action, r.object_type, r.object_id, r.object_label, r.outcome, r.detail
  )::text
$$;
