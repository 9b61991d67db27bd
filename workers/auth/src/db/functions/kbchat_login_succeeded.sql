-- kbchat_login_succeeded: its current definition, last set by migrations/0019_login_devices.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
CREATE FUNCTION kbchat_login_succeeded(
  p_username text,
  p_address text,
  p_user_id uuid,
  p_device text DEFAULT NULL
)
RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
  IF p_device IS NULL THEN
    DELETE FROM login_failures WHERE key = 'pair:' || lower(p_username) || '|' || p_address;
    UPDATE login_failures SET failures = greatest(failures - 1, 0)
    WHERE key IN ('address:' || p_address, 'user:' || lower(p_username));
  ELSE
    UPDATE login_failures SET failures = greatest(failures - 1, 0) WHERE key = 'device:' || p_device;
  END IF;
  INSERT INTO login_addresses (user_id, address, last_success) VALUES (p_user_id, p_address, now())
  ON CONFLICT (user_id, address) DO UPDATE SET last_success = now();
  DELETE FROM login_addresses WHERE user_id = p_user_id AND last_success < now() - interval '90 days';
END
$$;
