-- The login policy (README, "Sessions, throttling and sizes"), one statement per step so that a
-- login costs two round trips besides the password hash.
--
-- kbchat_login_attempt counts an attempt under every key it falls under BEFORE the password is
-- checked (so parallel guesses cannot all pass a check none of them is counted in yet) and
-- answers how many seconds to wait (0: go on):
-- - pair:<name>|<address>  more than p_pair_limit in the window: that pair waits for the window;
-- - address:<address>      more than p_address_limit: spraying many names from one address;
-- - user:<name>            more than p_backoff_after: attempts from addresses the user has not
--                          logged in from (in 90 days) are slowed, one per 2, 4, 8 … seconds up
--                          to the window; the owner's familiar addresses are never slowed, so a
--                          stranger cannot keep the owner out.
-- Expired rows are purged a few at a time: failed attempts are what add them.
CREATE FUNCTION kbchat_login_attempt(
  p_username text,
  p_address text,
  p_window_seconds integer,
  p_pair_limit integer,
  p_address_limit integer,
  p_backoff_after integer
) RETURNS integer
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
  v_window interval := make_interval(secs => p_window_seconds);
  v_name text := lower(p_username);
  v_retry integer := 0;
  v_familiar boolean;
  r record;
BEGIN
  DELETE FROM login_failures WHERE key IN (
    SELECT key FROM login_failures WHERE window_start <= now() - v_window LIMIT 20
  );
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
--> statement-breakpoint
-- A correct password: the pair starts afresh, the attempt is given back to the address and the
-- username, and the address becomes familiar for the user.
CREATE FUNCTION kbchat_login_succeeded(p_username text, p_address text, p_user_id uuid)
RETURNS void
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
  DELETE FROM login_failures WHERE key = 'pair:' || lower(p_username) || '|' || p_address;
  UPDATE login_failures SET failures = greatest(failures - 1, 0)
  WHERE key IN ('address:' || p_address, 'user:' || lower(p_username));
  INSERT INTO login_addresses (user_id, address, last_success) VALUES (p_user_id, p_address, now())
  ON CONFLICT (user_id, address) DO UPDATE SET last_success = now();
  DELETE FROM login_addresses WHERE user_id = p_user_id AND last_success < now() - interval '90 days';
END
$$;
