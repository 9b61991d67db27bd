import type { AuditRow } from '../store/audit';

/** English headers (stable for scripts); names, labels and details stay as recorded. */
export const AUDIT_CSV_HEADERS = [
  'id',
  'at',
  'actor_id',
  'actor_name',
  'key_id',
  'address',
  'action',
  'object_type',
  'object_id',
  'object_label',
  'outcome',
  'detail',
  'hash',
] as const;

// A cell that a spreadsheet would run as a formula starts with one of these: quoted with a
// leading apostrophe (OWASP's CSV-injection advice), since names and labels are anyone's words.
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The first bytes of the export: a byte-order mark (spreadsheets then read Chinese right). */
export const auditCsvHead = (): string => `\uFEFF${AUDIT_CSV_HEADERS.join(',')}\r\n`;

/** Records as CSV lines, CRLF-ended (RFC 4180). */
export function auditCsvLines(rows: readonly AuditRow[]): string {
  return rows
    .map(
      (r) =>
        [
          cell(r.id),
          cell(r.at.toISOString()),
          cell(r.actorId),
          cell(r.actorName),
          cell(r.keyId),
          cell(r.address),
          cell(r.action),
          cell(r.objectType),
          cell(r.objectId),
          cell(r.objectLabel),
          cell(r.outcome),
          cell(JSON.stringify(r.detail)),
          cell(r.hash),
        ].join(',') + '\r\n',
    )
    .join('');
}
