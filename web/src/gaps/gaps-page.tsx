import { useEffect, useState } from 'preact/hooks';
import type { ChatSource } from '../api/services';
import { mayAddFiles } from '../collection-access';
import type { SectionProps } from '../collection/sections';
import { OutcomeLines, useOutcome } from '../components/page';
import { saveFile } from '../components/save-file';
import { useApp, type AppContext } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { formatDate, formatDecimal2 } from '../i18n/format';
import { messages, type Messages } from '../i18n/messages';
import { documentLink } from '../main/route';
import { sourcePlace } from '../source-place';
import { openOfficialAnswerDialog } from '../official/official-answer-dialog';

export type GapReport = Awaited<ReturnType<AppContext['api']['chat']['GetGaps']>>;
export type GapGroup = GapReport['groups'][number];

/**
 * The gap report (`#/collection/<id>/gaps`), for the collection's editors and owners: questions
 * it could not answer well, grouped by similarity, each group with how often and why, its
 * latest wordings and the passages that came closest (each opening the viewer), and what to do:
 * write an official answer (which resolves the group) or mark it resolved. Exported as CSV.
 */
export function GapsSection({ collection }: SectionProps) {
  const ctx = useApp();
  const { api, signal } = ctx;
  const m = messages().gaps;
  const outcome = useOutcome();
  const [withResolved, setWithResolved] = useState(false);
  const [report, setReport] = useState<GapReport>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Its editors and owners only, as the tab (collection/sections.tsx): a viewer who comes by
  // the address is told so, with no controls and no request the service would refuse (403).
  // A refusal all the same (a role changed meanwhile) is told the same way.
  const [denied, setDenied] = useState(!mayAddFiles(collection));

  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    if (signal.aborted) return;
    const failure = ctx.fail(err);
    if (failure.status !== 401) outcome.failed(t((m) => what(failureText(failure, m), m)));
  }

  async function load(): Promise<void> {
    try {
      const found = await api.chat.GetGaps(
        { collection_id: collection.id, ...(withResolved ? { resolved: true } : {}) },
        { signal },
      );
      setProblem(undefined);
      setReport(found);
    } catch (err) {
      if (signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status === 403) setDenied(true);
      else if (failure.status !== 401) setProblem(m.loadFailed(failureText(failure, messages())));
    }
  }

  useEffect(() => {
    if (mayAddFiles(collection)) void load();
  }, [collection.id, withResolved]);

  async function exportCsv(): Promise<void> {
    setBusy(true);
    try {
      const file = await api.chat.GetGapsExport(
        { collection_id: collection.id, ...(withResolved ? { resolved: true } : {}) },
        { signal },
      );
      const blob = await new Response(file.body).blob();
      saveFile(new Blob([blob], { type: 'text/csv;charset=utf-8' }), file.filename ?? 'gaps.csv');
    } catch (err) {
      complain(err, (reason, m) => m.gaps.exportFailed(reason));
    } finally {
      setBusy(false);
    }
  }

  async function setResolved(group: GapGroup, resolved: boolean): Promise<void> {
    try {
      await api.chat.PostGapsResolved({ body: { ids: group.ids, resolved } }, { signal });
      outcome.done(t((m) => (resolved ? m.gaps.resolved : m.gaps.reopened)));
      await load();
    } catch (err) {
      complain(err, (reason, m) => m.gaps.notChanged(reason));
    }
  }

  async function writeAnswer(group: GapGroup): Promise<void> {
    const saved = await openOfficialAnswerDialog(ctx, {
      collectionId: collection.id,
      ...(group.questions[0] !== undefined ? { question: group.questions[0] } : {}),
      citations: group.closest_passages.flatMap((p) => (p.chunk_id ? [p.chunk_id] : [])),
      cited: group.closest_passages.flatMap((p) =>
        p.chunk_id ? [{ ...p, chunk_id: p.chunk_id }] : [],
      ),
      resolves: group.ids,
    });
    if (!saved) return;
    outcome.done(t((m) => m.gaps.answered));
    await load();
  }

  if (denied) {
    return (
      <section class="gaps-page" aria-labelledby="gaps-heading">
        <h2 id="gaps-heading">{m.section}</h2>
        <p class="notice">{m.keepersOnly}</p>
      </section>
    );
  }

  return (
    <section class="gaps-page" aria-labelledby="gaps-heading">
      <h2 id="gaps-heading">{m.section}</h2>
      <p class="hint">{m.intro}</p>
      <OutcomeLines outcome={outcome} />
      <div class="gaps-toolbar">
        <label class="switch">
          <input
            type="checkbox"
            checked={withResolved}
            onChange={(event) => setWithResolved((event.currentTarget as HTMLInputElement).checked)}
          />
          {m.showResolved}
        </label>
        <button
          type="button"
          class="button"
          disabled={busy || !report || report.groups.length === 0}
          onClick={() => void exportCsv()}
        >
          {m.exportCsv}
        </button>
      </div>
      {problem ? (
        <p class="notice error" role="alert">
          {problem}
        </p>
      ) : !report ? (
        <p class="loading">{m.loading}</p>
      ) : report.groups.length === 0 ? (
        <p class="empty">{withResolved ? m.noneAtAll : m.none}</p>
      ) : (
        <>
          <p class="count">{m.total(report.total, report.groups.length)}</p>
          <ol class="gap-groups">
            {report.groups.map((group) => (
              <GapGroupItem
                key={group.ids[0]}
                group={group}
                onWrite={() => void writeAnswer(group)}
                onResolve={(resolved) => void setResolved(group, resolved)}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function GapGroupItem(props: {
  group: GapGroup;
  onWrite(): void;
  onResolve(resolved: boolean): void;
}) {
  const { group } = props;
  const m = messages().gaps;
  const kinds = (['refused', 'unhelpful', 'unsupported'] as const)
    .filter((kind) => group.kinds[kind] > 0)
    .map((kind) => m.kinds[kind](group.kinds[kind]));
  return (
    <li class="card gap-group" data-gap-ids={group.ids.join(' ')}>
      <h3 class="gap-question">
        {group.questions[0]}
        {group.resolved && <span class="badge">{m.resolvedBadge}</span>}
      </h3>
      {group.questions.length > 1 && (
        <ul class="gap-wordings">
          {group.questions.slice(1).map((question) => (
            <li key={question}>{question}</li>
          ))}
        </ul>
      )}
      <p class="gap-facts">
        <span class="gap-count">{m.asked(group.count)}</span>
        {' · '}
        <span class="gap-kinds">{kinds.join(' · ')}</span>
        {' · '}
        {m.latest} <time dateTime={group.latest}>{formatDate(group.latest)}</time>
        {' · '}
        {m.bestSimilarity}{' '}
        {group.best_similarity === null ? m.noSimilarity : formatDecimal2(group.best_similarity)}
      </p>
      <h4>{m.closest}</h4>
      {group.closest_passages.length === 0 ? (
        <p class="muted">{m.noPassages}</p>
      ) : (
        <ul class="gap-passages">
          {group.closest_passages.map((passage) => (
            <li key={`${passage.file_id}:${passage.chunk_id ?? passage.page}`}>
              <PassageLink passage={passage} />
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        {!group.resolved && (
          <button type="button" class="button primary" onClick={props.onWrite}>
            {m.writeAnswer}
          </button>
        )}
        <button type="button" class="button" onClick={() => props.onResolve(!group.resolved)}>
          {group.resolved ? m.reopen : m.resolve}
        </button>
      </div>
    </li>
  );
}

/** A passage that came close, opening the document viewer at it. */
export function PassageLink({ passage }: { passage: ChatSource }) {
  const m = messages().gaps;
  return (
    <a
      href={documentLink(passage.file_id, passage.page, passage.chunk_id)}
      title={m.openPassageTitle(passage.file_name, sourcePlace(passage))}
    >
      {m.passage(passage.file_name, sourcePlace(passage), passage.similarity)}
    </a>
  );
}
