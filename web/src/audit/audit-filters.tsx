import { useState } from 'preact/hooks';
import { AUDIT_ACTIONS, AUDIT_OUTCOMES } from '#shared/audit/actions';
import { Field } from '../components/field';
import { messages } from '../i18n/messages';

/** What the filters ask for, as the form holds it (dates as the date inputs give them). */
export interface AuditFilterValues {
  actor: string;
  action: string;
  object: string;
  outcome: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilterValues = {
  actor: '',
  action: '',
  object: '',
  outcome: '',
  from: '',
  to: '',
};

const MODULES = ['auth', 'knowledge', 'chat'] as const;

/**
 * The query the API takes: empty fields left out; the dates are the reader's days, sent as the
 * instants they start (and, for `to`, the next day's start: the last day is included).
 */
export function auditQuery(values: AuditFilterValues) {
  const startOf = (day: string, plusDays = 0) => {
    const [y, m, d] = day.split('-').map(Number);
    return new Date(y!, m! - 1, d! + plusDays).toISOString();
  };
  return {
    ...(values.actor.trim() ? { actor: values.actor.trim() } : {}),
    ...(values.action ? { action: values.action } : {}),
    ...(values.object.trim() ? { object: values.object.trim() } : {}),
    ...(values.outcome ? { outcome: values.outcome as 'ok' | 'denied' | 'failed' } : {}),
    ...(values.from ? { from: startOf(values.from) } : {}),
    ...(values.to ? { to: startOf(values.to, 1) } : {}),
  };
}

/** Where the six fields would fill a first screen: there they start folded (phone.css's width). */
const NARROW = '(max-width: 860px)';

/**
 * The filter form: applied with its button (or Enter), cleared with the other. Folded under its
 * summary, which counts the filters applied, when the screen is narrow: the records come first.
 */
export function AuditFilters(props: { apply(values: AuditFilterValues): void }) {
  const m = messages();
  const [values, setValues] = useState<AuditFilterValues>(NO_FILTERS);
  const [applied, setApplied] = useState(0);
  const [open] = useState(() => !matchMedia(NARROW).matches);
  const set = (field: keyof AuditFilterValues) => (event: Event) =>
    setValues({ ...values, [field]: (event.currentTarget as HTMLInputElement).value });
  // Who and what: a name (or part of one) or an id, typed.
  const textField = (field: 'actor' | 'object', label: string, hint: string) => (
    <Field label={label} hint={hint}>
      {({ id, hintId }) => (
        <input
          id={id}
          aria-describedby={hintId}
          type="text"
          maxLength={200}
          value={values[field]}
          onInput={set(field)}
        />
      )}
    </Field>
  );
  const apply = (chosen: AuditFilterValues) => {
    setApplied(Object.keys(auditQuery(chosen)).length);
    props.apply(chosen);
  };

  return (
    <details class="audit-filter-box" open={open}>
      <summary>{m.audit.filtersToggle(applied)}</summary>
      <form
        class="audit-filters"
        aria-label={m.audit.filters}
        onSubmit={(event) => {
          event.preventDefault();
          apply(values);
        }}
      >
        {textField('actor', m.audit.actor, m.audit.actorHint)}
        <Field label={m.audit.action}>
          {({ id }) => (
            <select id={id} value={values.action} onChange={set('action')}>
              <option value="">{m.audit.anyAction}</option>
              {MODULES.map((module) => (
                <optgroup key={module} label={m.audit.modules[module]}>
                  <option value={`${module}.`}>{m.audit.allOf(m.audit.modules[module]!)}</option>
                  {AUDIT_ACTIONS.filter((action) => action.startsWith(`${module}.`)).map(
                    (action) => (
                      <option key={action} value={action}>
                        {m.audit.actions[action]}
                      </option>
                    ),
                  )}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        {textField('object', m.audit.object, m.audit.objectHint)}
        <Field label={m.audit.outcome}>
          {({ id }) => (
            <select id={id} value={values.outcome} onChange={set('outcome')}>
              <option value="">{m.audit.anyOutcome}</option>
              {AUDIT_OUTCOMES.map((outcome) => (
                <option key={outcome} value={outcome}>
                  {m.audit.outcomes[outcome]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={m.audit.from}>
          {({ id }) => <input id={id} type="date" value={values.from} onInput={set('from')} />}
        </Field>
        <Field label={m.audit.to}>
          {({ id }) => <input id={id} type="date" value={values.to} onInput={set('to')} />}
        </Field>
        <div class="audit-filter-actions">
          <button type="submit" class="button primary">
            {m.audit.apply}
          </button>
          <button
            type="button"
            class="button"
            onClick={() => {
              setValues(NO_FILTERS);
              apply(NO_FILTERS);
            }}
          >
            {m.audit.clear}
          </button>
        </div>
      </form>
    </details>
  );
}
