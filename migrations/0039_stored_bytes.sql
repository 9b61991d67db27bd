-- The bytes the acting user has stored (kbchat_stored_bytes), for their usage page beside user_max_bytes.
CREATE OR REPLACE FUNCTION kbchat_stored_bytes() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  SELECT coalesce(sum(f.size), 0)::bigint FROM files f WHERE f.uploader_id = kbchat_user();
$$;
