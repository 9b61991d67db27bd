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

/** A time the filter can use, or the reason it cannot. */
function instant(text: string): Date | string {
  if (DATE.test(text)) {
    const day = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text
      ? 'not a real date'
      : day;
  }
  if (!DATE_TIME.test(text))
    return 'not an ISO 8601 date (2026-11-26) or time (2026-11-26T08:00:00Z)';
  const withZone = /(Z|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`;
  const time = new Date(withZone);
  return Number.isNaN(time.getTime()) ? 'not a real time' : time;
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
    filter[field] = field === 'to' && DATE.test(text) ? new Date(at.getTime() + DAY_MS) : at;
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
