import { useLayoutEffect, useRef } from 'preact/hooks';
import { now, type Localized } from '../i18n/bind';
import { formatList } from '../i18n/format';
import { messages } from '../i18n/messages';
import { OfflineNote } from '../main/model-status';
import { Markdown } from '../markdown/markdown';
import { Feedback } from './feedback';
import { addressCitations, withoutCitations } from './citation-links';
import { Sources } from './sources';
import { ProposedFilters, type Filters } from './filter-bar';
import { SupportNote } from './support-note';
import { RefusalReason } from './refusal-reason';
import { sourcePlace } from '../source-place';
import type { Turn as TurnModel, TurnNotice } from './turn-model';
import type { CollectionStore } from '../collection-store';
import { useStore } from '../components/use-store';
import { useApp } from '../context';
import { t } from '../i18n/bind';
import { openOfficialAnswerDialog } from '../official/official-answer-dialog';

export interface TurnProps {
  turn: TurnModel;
  announce(text: Localized): void;
  /** Asks the question again with these filters (a proposed filter removed). */
  onRefilter?(filters: Filters): void;
  /** Asks the question again within one file (a refusal's closest passage's). */
  onAskInFile?(file: { id: string; name: string }): void;
  /** The user's collections: an owner of one an answer came from may make it official. */
  collections?: CollectionStore;
}

/** One question and its answer: streamed Markdown, what went wrong, the sources, feedback. */
export function Turn({ turn, announce, onRefilter, onAskInFile, collections }: TurnProps) {
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
      (n, s) => m.chat.citationLabel(n, s.file_name, sourcePlace(s)),
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
        <Notice notice={turn.notice.value} onAskInFile={onAskInFile} />
        <SupportNote support={turn.support.value} />
        {/* Only what the model wrote: not a refusal, not an official answer given as written
            (known once the answer has ended: an official answer streams before it says so). */}
        {answer && turn.ended.value && mode !== 'official' && <OfflineNote />}
        <p class="answer-status" hidden={status === undefined}>
          {status && now(status)}
        </p>
        {/* A chat about chosen files reads them whole when they fit, else their best pages. */}
        <p class="answer-mode" hidden={!mode || mode === 'retrieval'}>
          {mode === 'full_text'
            ? m.chat.modeFullText
            : mode === 'file_retrieval'
              ? m.chat.modeFileRetrieval
              : mode === 'official' && (
                  <span class="badge official-badge" title={m.official.badgeTitle}>
                    {m.official.badge}
                  </span>
                )}
        </p>
        <Sources sources={sources} echo={echo} />
        {collections && mode !== 'official' && turn.state.value === 'done' && (
          <OwnedMakeOfficial turn={turn} collections={collections} announce={announce} />
        )}
        {feedback && (
          <Feedback messageId={feedback.messageId} initial={feedback.initial} announce={announce} />
        )}
      </div>
    </article>
  );
}

function Notice({
  notice,
  onAskInFile,
}: {
  notice: TurnNotice | undefined;
  onAskInFile: TurnProps['onAskInFile'];
}) {
  const m = messages();
  if (!notice) return <div class="answer-notice" hidden />;
  const { kind, text, refusal } = notice;
  const closest = refusal?.closest;
  return (
    <div class={`answer-notice ${kind === 'incomplete' ? 'stopped' : kind}`}>
      <p>
        {/* A refusal has no lead: its text (the service's refusal, or the page's words for its
            code) already says no answer can be given, and a lead would say it twice. */}
        {kind !== 'refusal' && (
          <strong>
            {kind === 'stopped'
              ? m.chat.stopped
              : kind === 'incomplete'
                ? m.conversations.cutOffLabel
                : m.chat.failed}
          </strong>
        )}
        {now(text)}
      </p>
      {refusal && (
        <RefusalReason
          reason={refusal}
          onAskInFile={
            onAskInFile && closest
              ? () => onAskInFile({ id: closest.file_id, name: closest.file_name })
              : undefined
          }
        />
      )}
    </div>
  );
}

/** "Make official" under an answer, for an owner of a collection it cites (or drew on). */
function OwnedMakeOfficial(props: {
  turn: TurnModel;
  collections: CollectionStore;
  announce(text: Localized): void;
}) {
  const ctx = useApp();
  useStore(props.collections);
  const sources = props.turn.sources.value;
  const owned = props.collections.collections?.find(
    (c) => c.role === 'owner' && sources.some((s) => s.collection_id === c.id),
  );
  if (!owned) return null;
  const collectionId = owned.id;
  async function make() {
    const cited = sources
      .filter((s) => s.collection_id === collectionId && s.chunk_id && s.citation)
      .sort((a, b) => (a.citation ?? 0) - (b.citation ?? 0));
    const saved = await openOfficialAnswerDialog(ctx, {
      collectionId,
      question: props.turn.prompt,
      // Its passages are listed apart, by chunk: the answer's "[2]" would refer to nothing.
      answer: withoutCitations(props.turn.answer.value),
      citations: cited.map((s) => s.chunk_id!),
      cited: cited.map((s) => ({ ...s, chunk_id: s.chunk_id! })),
    });
    if (saved) props.announce(t((m) => m.official.saved));
  }
  return (
    <button
      type="button"
      class="button small make-official"
      title={messages().official.makeOfficialTitle}
      onClick={() => void make()}
    >
      {messages().official.makeOfficial}
    </button>
  );
}
