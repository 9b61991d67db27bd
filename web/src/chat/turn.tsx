import { useLayoutEffect, useRef } from 'preact/hooks';
import { now, type Localized } from '../i18n/bind';
import { formatList } from '../i18n/format';
import { messages } from '../i18n/messages';
import { OfflineNote } from '../main/model-status';
import { Markdown } from '../markdown/markdown';
import { Feedback } from './feedback';
import { addressCitations } from './citation-links';
import { Sources } from './sources';
import { ProposedFilters, type Filters } from './filter-bar';
import { SupportNote } from './support-note';
import type { Turn as TurnModel, TurnNotice } from './turn-model';

export interface TurnProps {
  turn: TurnModel;
  announce(text: Localized): void;
  /** Asks the question again with these filters (a proposed filter removed). */
  onRefilter?(filters: Filters): void;
}

/** One question and its answer: streamed Markdown, what went wrong, the sources, feedback. */
export function Turn({ turn, announce, onRefilter }: TurnProps) {
  const m = messages();
  const answer = turn.answer.value;
  const status = turn.status.value;
  const echo = turn.echo.value;
  const mode = turn.mode.value;
  const feedback = turn.feedback.value;
  const sources = turn.sources.value;
  const bubble = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => turn.answerShown(), [answer]);
  // The answer's citations open their sources in the document viewer once the sources are known.
  useLayoutEffect(() => {
    addressCitations(
      bubble.current!,
      sources,
      mode === 'retrieval' ? 'numbers' : 'markers',
      (n, s) =>
        m.chat.citationLabel(
          n,
          s.file_name,
          s.section ? m.chat.sourceSection(s.section) : m.chat.sourcePage(s.page),
        ),
    );
  }, [answer, sources, mode, m]);
  return (
    <article class="turn" aria-busy={turn.ended.value ? 'false' : 'true'}>
      <div class="bubble question">
        <p class="speaker">{m.chat.you}</p>
        <p class="question-text">{turn.prompt}</p>
        {turn.fileNames.length > 0 && (
          <p class="question-scope">{m.chat.askedIn(formatList([...turn.fileNames]))}</p>
        )}
        <ProposedFilters filters={turn.proposed.value} onRemove={onRefilter} />
      </div>
      <div class="bubble answer" data-state={turn.state.value} ref={bubble}>
        <p class="speaker">{m.chat.answer}</p>
        <Markdown class="markdown" source={answer} />
        <Notice notice={turn.notice.value} />
        <SupportNote support={turn.support.value} />
        <OfflineNote />
        <p class="answer-status" hidden={status === undefined}>
          {status && now(status)}
        </p>
        {/* A chat about chosen files reads them whole when they fit, else their best pages. */}
        <p class="answer-mode" hidden={!mode || mode === 'retrieval'}>
          {mode === 'full_text'
            ? m.chat.modeFullText
            : mode === 'file_retrieval' && m.chat.modeFileRetrieval}
        </p>
        <Sources sources={sources} echo={echo} />
        {feedback && (
          <Feedback messageId={feedback.messageId} initial={feedback.initial} announce={announce} />
        )}
      </div>
    </article>
  );
}

function Notice({ notice }: { notice: TurnNotice | undefined }) {
  const m = messages();
  if (!notice) return <div class="answer-notice" hidden />;
  const { kind, text, reason } = notice;
  return (
    <div class={`answer-notice ${kind === 'incomplete' ? 'stopped' : kind}`}>
      <p>
        <strong>
          {kind === 'refusal'
            ? m.chat.noAnswer
            : kind === 'stopped'
              ? m.chat.stopped
              : kind === 'incomplete'
                ? m.conversations.cutOffLabel
                : m.chat.failed}
        </strong>
        {now(text)}
      </p>
      {reason && <p class="refusal-reason">{now(reason)}</p>}
    </div>
  );
}
