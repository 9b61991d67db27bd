import { useEffect, useState } from 'preact/hooks';
import type { SectionProps } from '../collection/sections';
import { confirmDialog } from '../components/confirm-dialog';
import { Field } from '../components/field';
import { OutcomeLines, useOutcome } from '../components/page';
import { useApp, type AppContext } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { formatDate } from '../i18n/format';
import { messages, type Messages } from '../i18n/messages';
import { sourcePlace } from '../source-place';
import { openOfficialAnswerDialog } from './official-answer-dialog';

type OfficialAnswer = Awaited<ReturnType<AppContext['api']['chat']['GetOfficialAnswers']>>[number];
type Settings = Awaited<ReturnType<AppContext['api']['chat']['GetAnswerSettings']>>;

/**
 * A collection's official answers (标准口径) (`#/collection/<id>/official`): every reader sees
 * them and the threshold a question must reach to get one as written; owners write, change and
 * delete them and set the threshold (the service refuses anyone else anyway).
 */
export function OfficialSection({ collection }: SectionProps) {
  const ctx = useApp();
  const { api, signal } = ctx;
  const m = messages().official;
  const owner = collection.role === 'owner';
  const outcome = useOutcome();
  const [answers, setAnswers] = useState<OfficialAnswer[]>();
  const [settings, setSettings] = useState<Settings>();
  const [problem, setProblem] = useState<string>();

  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    if (signal.aborted) return;
    const failure = ctx.fail(err);
    if (failure.status !== 401) outcome.failed(t((all) => what(failureText(failure, all), all)));
  }

  async function load(): Promise<void> {
    try {
      const [list, found] = await Promise.all([
        api.chat.GetOfficialAnswers({ collection_id: collection.id }, { signal }),
        api.chat.GetAnswerSettings({ collection_id: collection.id }, { signal }),
      ]);
      setProblem(undefined);
      setAnswers(list);
      setSettings(found);
    } catch (err) {
      if (signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401) setProblem(m.loadFailed(failureText(failure, messages())));
    }
  }

  useEffect(() => {
    void load();
  }, [collection.id]);

  async function write(answer?: OfficialAnswer): Promise<void> {
    const saved = await openOfficialAnswerDialog(ctx, {
      collectionId: collection.id,
      ...(answer
        ? {
            id: answer.id,
            question: answer.question,
            answer: answer.answer,
            citations: answer.citations.flatMap((c) => (c.chunk_id ? [c.chunk_id] : [])),
            cited: answer.citations.flatMap((c) =>
              c.chunk_id ? [{ ...c, chunk_id: c.chunk_id }] : [],
            ),
          }
        : {}),
    });
    if (!saved) return;
    outcome.done(t((all) => all.official.saved));
    await load();
  }

  async function remove(answer: OfficialAnswer): Promise<void> {
    const sure = await confirmDialog((all) => ({
      title: all.official.removeTitle,
      message: all.official.removeMessage(answer.question),
      confirm: all.official.remove,
      danger: true,
    }));
    if (!sure) return;
    try {
      await api.chat.DeleteOfficialAnswer({ id: answer.id }, { signal });
      outcome.done(t((all) => all.official.removed));
      await load();
    } catch (err) {
      complain(err, (reason, all) => all.official.notSaved(reason));
    }
  }

  async function saveThreshold(value: number): Promise<void> {
    try {
      setSettings(
        await api.chat.PutAnswerSettings(
          { body: { collection_id: collection.id, official_threshold: value } },
          { signal },
        ),
      );
      outcome.done(t((all) => all.official.thresholdSaved));
    } catch (err) {
      complain(err, (reason, all) => all.official.notSaved(reason));
    }
  }

  return (
    <section class="official-page" aria-labelledby="official-heading">
      <h2 id="official-heading">{m.section}</h2>
      <p class="hint">{m.intro}</p>
      <OutcomeLines outcome={outcome} />
      {problem ? (
        <p class="notice error" role="alert">
          {problem}
        </p>
      ) : !answers || !settings ? null : (
        <>
          {owner ? (
            <ThresholdForm settings={settings} save={(value) => void saveThreshold(value)} />
          ) : (
            <p class="official-threshold">
              {m.threshold}: {settings.official_threshold}
            </p>
          )}
          {owner ? (
            <button type="button" class="button primary" onClick={() => void write()}>
              {m.write}
            </button>
          ) : (
            <p class="hint">{m.onlyOwners}</p>
          )}
          {answers.length === 0 ? (
            <p class="empty">{m.none}</p>
          ) : (
            <ul class="official-answers">
              {answers.map((answer) => (
                <li key={answer.id} class="card official-answer">
                  <h3>{answer.question}</h3>
                  <p class="official-text">{answer.answer}</p>
                  {answer.citations.length > 0 && (
                    <p class="hint">
                      {m.citedList(
                        answer.citations.map((c) => m.passageAt(c.file_name, sourcePlace(c))),
                      )}
                    </p>
                  )}
                  <p class="muted">{m.by(answer.updated_by, formatDate(answer.updated_at))}</p>
                  {owner && (
                    <div class="actions">
                      <button
                        type="button"
                        class="button small"
                        aria-label={m.editNamed(answer.question)}
                        onClick={() => void write(answer)}
                      >
                        {m.edit}
                      </button>
                      <button
                        type="button"
                        class="button small danger-outline"
                        aria-label={m.removeNamed(answer.question)}
                        onClick={() => void remove(answer)}
                      >
                        {m.remove}
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function ThresholdForm(props: { settings: Settings; save(value: number): void }) {
  const m = messages().official;
  return (
    <form
      class="form-row official-threshold"
      onSubmit={(event) => {
        event.preventDefault();
        const value = Number(new FormData(event.currentTarget).get('threshold'));
        if (Number.isFinite(value)) props.save(value);
      }}
    >
      <Field label={m.threshold} hint={m.thresholdHint(props.settings.min_similarity)}>
        {({ id, hintId }) => (
          <input
            id={id}
            name="threshold"
            type="number"
            min={0.5}
            max={1}
            step={0.01}
            required
            aria-describedby={hintId}
            defaultValue={String(props.settings.official_threshold)}
          />
        )}
      </Field>
      <button type="submit" class="button">
        {m.saveThreshold}
      </button>
    </form>
  );
}
