import { auditActor, authDb, type AuthCall } from '../call';
import { auditCsvHead, auditCsvLines } from '../audit/csv';
import { auditFilter, type AuditQuery } from '../audit/filters';
import { auditPage, auditRowsBefore, recorded, type AuditRow } from '../store/audit';

// Rows per round trip of the export: a few hundred kB of answer, far under what one HTTP
// query of the database may return (10 MB), however long the trail.
const EXPORT_PAGE = 2000;

const recordView = (row: AuditRow) => ({
  id: row.id,
  at: row.at.toISOString(),
  actor_id: row.actorId,
  actor_name: row.actorName,
  key_id: row.keyId,
  address: row.address,
  action: row.action,
  object_type: row.objectType,
  object_id: row.objectId,
  object_label: row.objectLabel,
  outcome: row.outcome,
  detail: (row.detail ?? {}) as Record<string, unknown>,
});

/** The trail, newest first, a page at a time (super admins: the contract's @role). */
export async function listAudit(
  { page, size, ...query }: AuditQuery & { page: number; size: number },
  ctx: AuthCall,
) {
  const { items, total } = await auditPage(authDb(ctx), auditFilter(query), page, size);
  return { items: items.map(recordView), total, page, size };
}

/**
 * The trail as CSV, newest first, with the same filters. The export is recorded in the same
 * batch that reads its first page (so an export that was read is an export that was recorded);
 * the rest follows a page per round trip while the answer streams.
 */
export async function exportAudit(query: AuditQuery, ctx: AuthCall) {
  const filter = auditFilter(query);
  const adb = authDb(ctx);
  const filters = Object.fromEntries(
    Object.entries(query).filter(([, v]) => typeof v === 'string' && v.trim() !== ''),
  );
  // The record after the read: the append lock (held to the commit) is not held over it.
  const [first] = await adb.batch([
    auditRowsBefore(adb, filter, undefined, EXPORT_PAGE),
    recorded(adb, { action: 'auth.audit_export', actor: auditActor(ctx), detail: { filters } }),
  ]);
  const encoder = new TextEncoder();
  let page = first as AuditRow[];
  let head = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (head) {
        head = false;
        controller.enqueue(encoder.encode(auditCsvHead()));
      }
      if (page.length === 0) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(auditCsvLines(page)));
      if (page.length < EXPORT_PAGE) {
        page = [];
        return;
      }
      const before = page[page.length - 1]!.id;
      page = (await adb.run(auditRowsBefore(adb, filter, before, EXPORT_PAGE))) as AuditRow[];
    },
  });
  return {
    body,
    contentType: 'text/csv; charset=utf-8',
    filename: `audit-${new Date().toISOString().slice(0, 10)}.csv`,
  };
}
