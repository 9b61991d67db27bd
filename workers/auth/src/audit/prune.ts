import { requestDb } from '#shared/db/request-db';
import type { Logger } from '#shared/log/logger';
import { authConfig } from '../config';
import * as schema from '../db/schema';
import { pruneAudit } from '../store/audit';

/**
 * The cron trigger's work (wrangler.toml [triggers]): removes the audit records older than the
 * retention setting (usage_limits.audit_retention_days). kbchat_audit_prune acts at most once a
 * UTC day, whatever the schedule, and records what it removed in the trail itself. It acts for
 * no user: the function is SECURITY DEFINER, and the workers' role cannot delete records.
 */
export async function pruneAuditTrail(env: AuthEnv, log: Logger): Promise<number | null> {
  const adb = requestDb(authConfig(env).database, schema, undefined);
  const { rows } = await adb.run(pruneAudit(adb));
  const removed = rows[0]?.removed ?? null;
  if (removed === null) log.info('audit prune: done already today');
  else log.info('audit prune', { removed: Number(removed) });
  return removed === null ? null : Number(removed);
}
