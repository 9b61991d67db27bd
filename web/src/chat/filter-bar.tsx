import type { Signal } from '@preact/signals';
import type { z } from 'zod';
import type { DocumentFilters } from '#shared/contracts/document-metadata';
import { formatCalendarDate } from '../i18n/format';
import { messages } from '../i18n/messages';

/** The filters a question is asked with (the chat body's `filters`). */
export type Filters = z.input<typeof DocumentFilters>;

/** The document types the bar offers: those official documents name themselves by. */
export const DOC_TYPES = [
  '办法',
  '通知',
  '意见',
  '规定',
  '决定',
  '方案',
  '细则',
  '条例',
  '公告',
  '通告',
];

/**
 * The bar's values as the request's filters: trimmed, empty ones left out; undefined when none
 * is set, so that the service may read filters from the question itself (and say so).
 */
export function activeFilters(values: Filters): Filters | undefined {
  const active: Filters = {};
  const issuer = values.issuer?.trim();
  if (issuer) active.issuer = issuer;
  if (values.doc_type) active.doc_type = values.doc_type;
  if (values.issued_from) active.issued_from = values.issued_from;
  if (values.issued_to) active.issued_to = values.issued_to;
  if (values.in_force) active.in_force = true;
  return Object.keys(active).length > 0 ? active : undefined;
}

/** Filters on what documents say of themselves, sent with each question. */
export function FilterBar({ filters }: { filters: Signal<Filters> }) {
  const m = messages().filters;
  const values = filters.value;
  const set = (patch: Partial<Filters>) => {
    const next: Filters = { ...values, ...patch };
    for (const key of Object.keys(next) as (keyof Filters)[]) {
      if (next[key] === undefined || next[key] === '' || next[key] === false) delete next[key];
    }
    filters.value = next;
  };
  const value = (event: Event) => (event.currentTarget as HTMLInputElement).value;
  const active = Object.keys(activeFilters(values) ?? {}).length;
  // Folded by default: most questions need no filter, and on a phone the fields would take
  // the answer's room. The summary says how many are set.
  return (
    <details class="filter-panel">
      <summary>{m.toggle(active)}</summary>
      <fieldset class="filter-bar">
        <legend class="visually-hidden">{m.bar}</legend>
        <label class="filter-field">
          <span>{m.issuer}</span>
          <input
            type="text"
            value={values.issuer ?? ''}
            placeholder={m.issuerPlaceholder}
            maxLength={200}
            onInput={(event) => set({ issuer: value(event) })}
          />
        </label>
        <label class="filter-field">
          <span>{m.docType}</span>
          <select
            value={values.doc_type ?? ''}
            onChange={(event) => set({ doc_type: value(event) || undefined })}
          >
            <option value="">{m.anyType}</option>
            {DOC_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label class="filter-field">
          <span>{m.issuedFrom}</span>
          <input
            type="date"
            value={values.issued_from ?? ''}
            onInput={(event) => set({ issued_from: value(event) || undefined })}
          />
        </label>
        <label class="filter-field">
          <span>{m.issuedTo}</span>
          <input
            type="date"
            value={values.issued_to ?? ''}
            onInput={(event) => set({ issued_to: value(event) || undefined })}
          />
        </label>
        <label class="filter-check">
          <input
            type="checkbox"
            checked={values.in_force === true}
            onChange={(event) =>
              set({ in_force: (event.currentTarget as HTMLInputElement).checked })
            }
          />
          <span>{m.inForce}</span>
        </label>
        {activeFilters(values) && (
          <button type="button" class="link filter-clear" onClick={() => (filters.value = {})}>
            {m.clear}
          </button>
        )}
      </fieldset>
    </details>
  );
}

/** A filter's words on its chip. */
function chipLabel(key: keyof Filters, filters: Filters): string {
  const m = messages().filters;
  switch (key) {
    case 'issuer':
      return m.chipIssuer(filters.issuer!);
    case 'doc_type':
      return m.chipType(filters.doc_type!);
    case 'doc_number':
      return m.chipDocNumber(filters.doc_number!);
    case 'issued_from':
      return m.chipFrom(formatCalendarDate(filters.issued_from!));
    case 'issued_to':
      return m.chipTo(formatCalendarDate(filters.issued_to!));
    case 'effective_from':
      return m.chipEffectiveFrom(formatCalendarDate(filters.effective_from!));
    case 'effective_to':
      return m.chipEffectiveTo(formatCalendarDate(filters.effective_to!));
    case 'in_force':
      return filters.in_force ? m.chipInForce : m.chipNotInForce;
  }
}

/**
 * The filters the service read from a question (its `filters` event), one chip each; removing
 * one asks the question again with the others, as explicit filters (none left: `{}`).
 */
export function ProposedFilters({
  filters,
  onRemove,
}: {
  filters: Filters | undefined;
  onRemove?: (remaining: Filters) => void;
}) {
  if (!filters) return null;
  const m = messages().filters;
  const keys = (Object.keys(filters) as (keyof Filters)[]).filter((k) => filters[k] !== undefined);
  if (keys.length === 0) return null;
  return (
    <div class="proposed-filters">
      <span>{m.proposed}</span>
      <ul>
        {keys.map((key) => {
          const label = chipLabel(key, filters);
          return (
            <li key={key} class="filter-chip">
              <span>{label}</span>
              {onRemove && (
                <button
                  type="button"
                  class="chip-remove"
                  aria-label={m.remove(label)}
                  onClick={() => {
                    const remaining = { ...filters };
                    delete remaining[key];
                    onRemove(remaining);
                  }}
                >
                  ×
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
