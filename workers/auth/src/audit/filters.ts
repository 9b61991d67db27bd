import { AppError, type FieldIssue } from '#shared/errors/app-error';
import type { AuditOutcome } from '#shared/audit/actions';

/** The audit trail's filters as the contract takes them (GetAudit, GetAuditExport). */
export interface AuditQuery {
  actor?: string;
  action?: string;
  object?: string;
  outcome?: AuditOutcome;
  from?: string;
  to?: string;
}

/** The filters checked and made exact: what store/audit.ts turns into SQL. */
export interface AuditFilter {
  /** A user's id, or part of their name (case-insensitive). */
  actor?: string;
  /** One action, or every action of a module (`knowledge.`). */
  action?: { exact: string } | { prefix: string };
  /** An object's id, or part of its label (case-insensitive). */
  object?: string;
  outcome?: AuditOutcome;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

// ISO 8601 as people and the web app send it: a date, or a date and time (seconds, fraction
// and offset optional; no offset means UTC, as a date alone does).
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;
const DAY_MS = 24 * 60 * 60 * 1000;

// The instants the database's timestamps and JavaScript's ISO strings share: from the year 1
// (Postgres has no year 0) to the end of 9999 (past it, ISO strings grow a sign Postgres reads
// as no time).
const FIRST = Date.parse('0001-01-01T00:00:00Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

/** A time the filter can use, or the reason it cannot. */
function instant(text: string): Date | string {
  let time: Date;
  if (DATE.test(text)) {
    time = new Date(`${text}T00:00:00Z`);
    if (Number.isNaN(time.getTime()) || time.toISOString().slice(0, 10) !== text) {
      return 'not a real date';
    }
  } else {
    if (!DATE_TIME.test(text))
      return 'not an ISO 8601 date (2026-11-26) or time (2026-11-26T08:00:00Z)';
    const withZone = /(Z|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`;
    time = new Date(withZone);
    if (Number.isNaN(time.getTime())) return 'not a real time';
  }
  return time.getTime() < FIRST || time.getTime() > LAST
    ? 'not between the years 1 and 9999'
    : time;
}

/**
 * Checks the filters: a `from` or `to` that is not a date or time, or a `to` before `from`, is
 * a 400 naming the field. A `to` that is a date includes that whole day.
 */
export function auditFilter(query: AuditQuery): AuditFilter {
  const issues: FieldIssue[] = [];
  const filter: AuditFilter = {};
  const actor = query.actor?.trim();
  if (actor) filter.actor = actor;
  const action = query.action?.trim();
  if (action) filter.action = action.endsWith('.') ? { prefix: action } : { exact: action };
  const object = query.object?.trim();
  if (object) filter.object = object;
  if (query.outcome) filter.outcome = query.outcome;
  for (const field of ['from', 'to'] as const) {
    const text = query[field]?.trim();
    if (!text) continue;
    const at = instant(text);
    if (typeof at === 'string') {
      issues.push({ field, message: at });
      continue;
    }
    // A `to` day includes all of it; the last day there is, up to its last instant.
    filter[field] =
      field === 'to' && DATE.test(text) ? new Date(Math.min(at.getTime() + DAY_MS, LAST)) : at;
  }
  if (filter.from && filter.to && filter.to <= filter.from) {
    issues.push({ field: 'to', message: 'before (or the same as) from' });
  }
  if (issues.length > 0) {
    throw new AppError('validation_failed', {
      detail: issues.map((i) => `${i.field}: ${i.message}`).join('; '),
      errors: issues,
    });
  }
  return filter;
}
