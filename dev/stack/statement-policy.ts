/**
 * What the transaction-pooling front lets through. Clients take turns on PGlite's one session
 * between transactions, so session state cannot be shared the way a dedicated connection would
 * keep it. Like PgBouncer in transaction mode, the front keeps what it can follow and refuses,
 * with a clear error, what it cannot:
 *
 * - `SET name = value` / `RESET name` / `RESET ALL` outside a transaction's scope: tracked per
 *   client and replayed whenever the client gets the session again;
 * - `SET LOCAL`, `set_config(…, true)`, transaction-level advisory locks: transaction-scoped,
 *   so always fine;
 * - LISTEN, session-level advisory locks, temporary tables, cursors WITH HOLD, SQL-level
 *   PREPARE, `set_config(…, false)`: refused (they would outlive the transaction and be seen by
 *   the next client); protocol-level named prepared statements are supported by renaming;
 * - a non-superuser client (the application's role) may not change its role or session user.
 *
 * This is a development stand-in, matched on statement text; it is not a SQL parser.
 */

export interface Refusal {
  sqlstate: string;
  message: string;
}

const SUFFIX = 'is not supported by the local transaction-pooling database front';

const REFUSED: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /(^|;)\s*(listen|unlisten)\b/i, what: 'LISTEN/UNLISTEN' },
  {
    pattern: /\bpg_(try_)?advisory_lock(_shared)?\s*\(/i,
    what: 'a session-level advisory lock (use pg_advisory_xact_lock)',
  },
  { pattern: /\bcreate\s+(global\s+|local\s+)?temp(orary)?\s+/i, what: 'a temporary table' },
  { pattern: /\bdeclare\b[^;]*\bwith\s+hold\b/i, what: 'a cursor WITH HOLD' },
  {
    pattern: /(^|;)\s*prepare\s+\w+/i,
    what: 'SQL-level PREPARE (use protocol-level prepared statements)',
  },
  {
    pattern: /\bset_config\s*\([^)]*,\s*false\s*\)/i,
    what: 'session-level set_config(…, false) (use SET, or set_config(…, true) in a transaction)',
  },
];

const IDENTITY_CHANGE: readonly RegExp[] = [
  /\bsession\s+authorization\b/i,
  /(^|;)\s*(set\s+(session\s+)?|reset\s+)role\b/i,
  /\bset_config\s*\(\s*'(role|session_authorization)'/i,
];

/** Why the front refuses this statement text, or undefined when it may run. */
export function refusalOf(text: string, clientIsSuperuser: boolean): Refusal | undefined {
  for (const { pattern, what } of REFUSED) {
    if (pattern.test(text)) return { sqlstate: '0A000', message: `${what} ${SUFFIX}` };
  }
  if (!clientIsSuperuser && IDENTITY_CHANGE.some((pattern) => pattern.test(text))) {
    return { sqlstate: '42501', message: 'permission denied to change the role of this session' };
  }
  return undefined;
}

/** Session settings a client made with SET, by parameter name, in order of setting. */
export type TrackedSettings = Map<string, string>;

const SET_STATEMENT =
  /(?:^|;)\s*set\s+(?:session\s+)?(?!local\b|transaction\b|session\s+characteristics\b|role\b|session\s+authorization\b)([\w."]+)\s*(?:=|\bto\b)\s*([^;]*)/gi;
const RESET_STATEMENT = /(?:^|;)\s*reset\s+([\w."]+)/gi;
const DISCARD_ALL = /(?:^|;)\s*discard\s+all\b/i;

/**
 * Applies the session-level SET / RESET statements of a statement text that ran successfully
 * to a client's tracked settings. Returns true when anything changed.
 */
export function trackSessionSettings(text: string, settings: TrackedSettings): boolean {
  let changed = false;
  if (DISCARD_ALL.test(text) && settings.size > 0) {
    settings.clear();
    changed = true;
  }
  for (const match of text.matchAll(RESET_STATEMENT)) {
    const name = match[1]!.toLowerCase();
    if (name === 'all') {
      changed ||= settings.size > 0;
      settings.clear();
    } else if (settings.delete(name)) changed = true;
  }
  for (const match of text.matchAll(SET_STATEMENT)) {
    const name = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    settings.delete(name); // keeps the most recent setting last
    settings.set(name, `SET ${match[1]} = ${value}`);
    changed = true;
  }
  return changed;
}

/** True when statement text may change role or database defaults the front caches. */
export const changesDefaults = (text: string) =>
  /\balter\s+(role|user|database)\b|\bdrop\s+(role|user)\b/i.test(text);

/** A `SET` statement for a `name=value` entry of pg_db_role_setting. */
export function setStatementOf(entry: string): string {
  const separator = entry.indexOf('=');
  const name = entry.slice(0, separator);
  const value = entry.slice(separator + 1).replaceAll("'", "''");
  return `SET ${name} = '${value}'`;
}
