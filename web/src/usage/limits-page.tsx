import { useEffect, useState } from 'preact/hooks';
import { Field } from '../components/field';
import { Notice } from '../components/notice';
import { Denied, OutcomeLines, Page, useOutcome } from '../components/page';
import { useApp, type AppContext } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';

type Limits = Awaited<ReturnType<AppContext['api']['chat']['GetLimits']>>;
type LimitKey =
  | 'user_daily_questions'
  | 'user_daily_tokens'
  | 'collection_max_files'
  | 'collection_max_bytes'
  | 'user_max_bytes';

const MB = 1024 * 1024;

/** The limits counted in bytes, shown and typed in MB. */
const inMegabytes = (key: LimitKey) => key === 'collection_max_bytes' || key === 'user_max_bytes';

/** The form's text for a limit (bytes shown in MB): empty for none. */
export function limitText(limits: Limits, key: LimitKey): string {
  const value = limits[key];
  if (value === null) return '';
  return inMegabytes(key) ? String(Math.round((value / MB) * 100) / 100) : String(value);
}

/** A box's text as the limit: null when empty, undefined when not a whole number ≥ 1 (MB may have decimals). */
export function limitValue(text: string, key: LimitKey): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (inMegabytes(key)) {
    const mb = Number(trimmed);
    return Number.isFinite(mb) && mb > 0 ? Math.max(1, Math.round(mb * MB)) : undefined;
  }
  return /^\d+$/.test(trimmed) && Number(trimmed) >= 1 && Number.isSafeInteger(Number(trimmed))
    ? Number(trimmed)
    : undefined;
}

const KEYS: readonly LimitKey[] = [
  'user_daily_questions',
  'user_daily_tokens',
  'collection_max_files',
  'collection_max_bytes',
  'user_max_bytes',
];

/**
 * The limits and the audit settings (`#/admin/limits`, super admins): per user per day
 * (questions, tokens), per collection (files, storage), per user's storage over every
 * collection, whether each question is audited and
 * how long audit records are kept. An empty box is no limit.
 */
export function LimitsPage() {
  const ctx = useApp();
  const { api, me, signal } = ctx;
  const outcome = useOutcome();
  const admin = me.role === 'SUPER_ADMIN';
  const [limits, setLimits] = useState<Limits>();
  const [texts, setTexts] = useState<Record<LimitKey, string>>();
  const [auditQuestions, setAuditQuestions] = useState(true);
  const [retention, setRetention] = useState('');
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const m = messages().usage;

  function show(found: Limits): void {
    setLimits(found);
    setTexts(
      Object.fromEntries(KEYS.map((key) => [key, limitText(found, key)])) as Record<
        LimitKey,
        string
      >,
    );
    setAuditQuestions(found.audit_questions);
    setRetention(String(found.audit_retention_days));
  }

  useEffect(() => {
    if (!admin) return;
    api.chat.GetLimits(undefined, { signal }).then(show, (err: unknown) => {
      if (signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401) setProblem(m.loadFailed(failureText(failure, messages())));
    });
  }, []);

  const labels: Record<LimitKey, string> = {
    user_daily_questions: m.userDailyQuestions,
    user_daily_tokens: m.userDailyTokens,
    collection_max_files: m.collectionMaxFiles,
    collection_max_bytes: m.collectionMaxBytes,
    user_max_bytes: m.userMaxBytes,
  };

  async function save(event: Event): Promise<void> {
    event.preventDefault();
    if (!texts) return;
    const values: Partial<Record<LimitKey, number | null>> = {};
    for (const key of KEYS) {
      const value = limitValue(texts[key], key);
      if (value === undefined) {
        outcome.failed(t((m) => m.usage.notWhole(labels[key])));
        return;
      }
      values[key] = value;
    }
    const days = Number(retention);
    if (!/^\d+$/.test(retention.trim()) || days < 30 || days > 36500) {
      outcome.failed(t((m) => m.usage.retentionRange));
      return;
    }
    setSaving(true);
    try {
      const saved = await api.chat.PutLimits(
        {
          body: {
            user_daily_questions: values.user_daily_questions ?? null,
            user_daily_tokens: values.user_daily_tokens ?? null,
            collection_max_files: values.collection_max_files ?? null,
            collection_max_bytes: values.collection_max_bytes ?? null,
            user_max_bytes: values.user_max_bytes ?? null,
            audit_questions: auditQuestions,
            audit_retention_days: days,
          },
        },
        { signal },
      );
      show(saved);
      outcome.done(t((m) => m.usage.saved));
    } catch (err) {
      const failure = ctx.fail(err);
      if (failure.status !== 401)
        outcome.failed(t((m) => m.usage.notSaved(failureText(failure, m))));
    } finally {
      setSaving(false);
    }
  }

  if (!admin) {
    return (
      <Page class="limits-page" heading={m.limitsTitle}>
        <Denied message={m.deniedAdmin} back={m.back} />
      </Page>
    );
  }
  return (
    <Page class="limits-page" heading={m.limitsTitle}>
      <p class="hint">{m.limitsIntro}</p>
      <Notice tone="error" text={problem} />
      <OutcomeLines outcome={outcome} />
      {!limits && !problem && <p role="status">{m.loading}</p>}
      {limits && texts && (
        <form class="limits-form" onSubmit={(event) => void save(event)} noValidate>
          <fieldset>
            <legend>{m.limitsTitle}</legend>
            {KEYS.map((key) => (
              <Field
                key={key}
                label={labels[key]}
                hint={inMegabytes(key) ? m.bytesHint(limits[key]) : m.emptyNoLimit}
              >
                {({ id, hintId }) => (
                  <input
                    id={id}
                    name={key}
                    type="text"
                    inputMode={inMegabytes(key) ? 'decimal' : 'numeric'}
                    value={texts[key]}
                    aria-describedby={hintId}
                    onInput={(e) =>
                      setTexts({ ...texts, [key]: (e.currentTarget as HTMLInputElement).value })
                    }
                  />
                )}
              </Field>
            ))}
          </fieldset>
          <fieldset>
            <legend>{m.auditTitle}</legend>
            <label class="switch">
              <input
                type="checkbox"
                name="audit_questions"
                checked={auditQuestions}
                onChange={(e) => setAuditQuestions((e.currentTarget as HTMLInputElement).checked)}
              />
              {m.auditQuestions}
            </label>
            <Field label={m.auditRetentionDays}>
              {({ id }) => (
                <input
                  id={id}
                  name="audit_retention_days"
                  type="text"
                  inputMode="numeric"
                  value={retention}
                  onInput={(e) => setRetention((e.currentTarget as HTMLInputElement).value)}
                />
              )}
            </Field>
          </fieldset>
          <button type="submit" class="button primary" disabled={saving}>
            {saving ? m.saving : m.save}
          </button>
        </form>
      )}
    </Page>
  );
}
