// The audit trail's hash chain, checked from outside the database (npm run audit:verify, the
// tooling test, bench/audit.ts). Each record's hash is SHA-256 of the hash before it and the
// record's canonical text, which the database gives (kbchat_audit_text, migration 0026): the
// hash is recomputed here, in Node, so that a database that lies about hashes is caught too.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { openPool } from '#shared/db/database';

type Db = ReturnType<typeof openPool>['db'];

/** The "hash before" of the first record ever written. */
export const GENESIS = '0'.repeat(64);

export interface ChainBreak {
  id: number;
  why: string;
}

export interface ChainReport {
  /** Records read. */
  count: number;
  /** The first record's id (null: an empty trail). */
  firstId: number | null;
  /** The newest record's hash: write it down elsewhere, as an anchor a rewrite cannot match. */
  head: string | null;
  /** Where the chain starts: from the very first record, or after a prune that names it. */
  start: 'genesis' | 'after prune' | null;
  /** The first broken record, if any. */
  broken?: ChainBreak;
}

interface Row extends Record<string, unknown> {
  id: string;
  prev_hash: string;
  hash: string;
  text: string;
  action: string;
  /** A prune's record: the last record it removed (null when it removed none). */
  last_removed_id: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Reads the trail in id order, `pageSize` records per query, and checks the chain. With
 * `hash: false` it only reads (the benchmark's floor). Stops at the first break.
 */
export async function verifyAuditChain(
  db: Db,
  options: { pageSize?: number; hash?: boolean } = {},
): Promise<ChainReport> {
  const pageSize = options.pageSize ?? 5000;
  const hashing = options.hash ?? true;
  const report: ChainReport = { count: 0, firstId: null, head: null, start: null };
  let last = 0;
  let before: string | null = null;
  for (;;) {
    const { rows } = await db.execute<Row>(sql`
      select a.id::text as id, a.prev_hash, a.hash, kbchat_audit_text(a) as text, a.action,
        a.detail->>'last_removed_id' as last_removed_id
      from audit_events a where a.id > ${last} order by a.id limit ${pageSize}`);
    for (const row of rows) {
      const id = Number(row.id);
      if (before === null) {
        report.firstId = id;
        report.start = await startOf(db, row);
        if (report.start === null) {
          report.broken = {
            id,
            why: `the chain starts at record ${id}, whose prev_hash names no removed record (no auth.audit_prune names it): records before it were deleted outside the retention`,
          };
          return report;
        }
      } else if (row.prev_hash !== before) {
        report.broken = {
          id,
          why: `its prev_hash is not the hash of the record before it (${last}): a record between was removed, or this one's prev_hash was changed`,
        };
        return report;
      }
      if (hashing && sha256(row.prev_hash + row.text) !== row.hash) {
        report.broken = {
          id,
          why: 'its hash does not match its content: the record was changed after it was written',
        };
        return report;
      }
      before = row.hash;
      last = id;
      report.count++;
      report.head = row.hash;
    }
    if (rows.length < pageSize) return report;
  }
}

/**
 * Where the chain starts, by its first record's prev_hash: 64 zeros (the first record ever), or
 * the last removed record's hash as a prune recorded it (since migration 0032 that prune's own
 * record, when it removed every record before it). A prune that removed every record under
 * migration 0028 appended its record to an empty table, so it starts from 64 zeros and names
 * what it removed only in its detail: after a prune too.
 */
async function startOf(db: Db, first: Row): Promise<ChainReport['start']> {
  if (first.prev_hash === GENESIS) {
    return first.action === 'auth.audit_prune' && first.last_removed_id !== null
      ? 'after prune'
      : 'genesis';
  }
  const { rows } = await db.execute(sql`
    select 1 from audit_events
    where action = 'auth.audit_prune' and detail->>'last_removed_hash' = ${first.prev_hash} limit 1`);
  return rows.length > 0 ? 'after prune' : null;
}
