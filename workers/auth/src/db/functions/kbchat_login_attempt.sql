-- kbchat_login_attempt: its current definition, last set by migrations/0019_login_devices.sql.
-- To change it, write a migration that replaces it and change this file to match
-- (dev/sql-functions.test.ts checks that they agree).
CREATE FUNCTION kbchat_login_attempt(
  p_username text,
  p_address text,
  p_window_seconds integer,
  p_pair_limit integer,
  p_address_limit integer,
  p_backoff_after integer,
  p_device text DEFAULT NULL,
  p_device_user uuid DEFAULT NULL,
  p_device_epoch integer DEFAULT NULL
) RETURNS integer
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
  v_window interval := make_interval(secs => p_window_seconds);
  v_name text := lower(p_username);
  v_retry integer := 0;
  v_familiar boolean;
  v_device boolean;
  r record;
BEGIN
  DELETE FROM login_failures WHERE key IN (
    SELECT key FROM login_failures WHERE window_start <= now() - v_window LIMIT 20
  );
  SELECT p_device IS NOT NULL AND EXISTS (
    SELECT 1 FROM users u
    WHERE u.id = p_device_user AND lower(u.username) = v_name AND u.session_epoch = p_device_epoch
  ) INTO v_device;
  IF v_device THEN
    INSERT INTO login_failures AS f (key, window_start, failures)
    VALUES ('device:' || p_device, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN f.window_start <= now() - v_window THEN 1 ELSE f.failures + 1 END,
      window_start = CASE WHEN f.window_start <= now() - v_window THEN now() ELSE f.window_start END
    RETURNING f.failures, f.window_start INTO r;
    IF r.failures > p_pair_limit THEN
      v_retry := ceil(extract(epoch FROM r.window_start + v_window - now()))::integer;
    END IF;
    RETURN greatest(v_retry, 0);
  END IF;
  SELECT EXISTS (
    SELECT 1 FROM login_addresses a JOIN users u ON u.id = a.user_id
    WHERE lower(u.username) = v_name AND a.address = p_address
      AND a.last_success > now() - interval '90 days'
  ) INTO v_familiar;
  FOR r IN
    INSERT INTO login_failures AS f (key, window_start, failures)
    SELECT k, now(), 1
    FROM unnest(ARRAY['pair:' || v_name || '|' || p_address, 'address:' || p_address, 'user:' || v_name]) AS k
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN f.window_start <= now() - v_window THEN 1 ELSE f.failures + 1 END,
      next_allowed_at = CASE WHEN f.window_start <= now() - v_window THEN NULL ELSE f.next_allowed_at END,
      window_start = CASE WHEN f.window_start <= now() - v_window THEN now() ELSE f.window_start END
    RETURNING f.key, f.failures, f.window_start, f.next_allowed_at
  LOOP
    IF (r.key LIKE 'pair:%' AND r.failures > p_pair_limit)
       OR (r.key LIKE 'address:%' AND r.failures > p_address_limit) THEN
      v_retry := greatest(v_retry, ceil(extract(epoch FROM r.window_start + v_window - now()))::integer);
    ELSIF r.key LIKE 'user:%' AND NOT v_familiar AND r.failures > p_backoff_after THEN
      IF r.next_allowed_at > now() THEN
        v_retry := greatest(v_retry, ceil(extract(epoch FROM r.next_allowed_at - now()))::integer);
      ELSE
        UPDATE login_failures SET next_allowed_at = now() + least(
          make_interval(secs => power(2, least(r.failures - p_backoff_after, 20))),
          v_window)
        WHERE key = r.key;
      END IF;
    END IF;
  END LOOP;
  RETURN greatest(v_retry, 0);
END
$$;
