import { useSignal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { mayAddFiles } from '../collection-access';
import type { SectionProps } from '../collection/sections';
import { activeFilters, FilterBar, type Filters } from '../chat/filter-bar';
import { confirmDialog } from '../components/confirm-dialog';
import { Field } from '../components/field';
import { OutcomeLines, useOutcome } from '../components/page';
import { useApp } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import { ResultList } from './result-list';
import { TestSet } from './test-set';
import {
  SEARCH_MODES,
  type QueryResult,
  type RetrievalTest,
  type RetrievalTestRun,
  type SearchMode,
} from './types';

const TOPS = [5, 10, 20, 50];

/**
 * The retrieval test (`#/collection/<id>/retrieval`): search the collection as chat does and
 * see each passage's similarity, list ranks and whether chat's threshold lets it through; save
 * a question with the passage it should find; run the saved set for its hit rate and MRR.
 * Every reader may search and run; editors and owners save and delete.
 */
export function RetrievalSection({ collection }: SectionProps) {
  const ctx = useApp();
  const { api, signal } = ctx;
  const m = messages().retrieval;
  const outcome = useOutcome();
  const editor = mayAddFiles(collection);
  const [question, setQuestion] = useState('');
  const [mode, setMode] = useState<SearchMode>('hybrid');
  const [top, setTop] = useState(10);
  const filters = useSignal<Filters>({});
  const [searched, setSearched] = useState<{ question: string; results: QueryResult[] }>();
  const [searching, setSearching] = useState(false);
  const [threshold, setThreshold] = useState<number>();
  const [tests, setTests] = useState<RetrievalTest[]>([]);
  const [run, setRun] = useState<RetrievalTestRun>();
  const [running, setRunning] = useState(false);

  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    const failure = ctx.fail(err);
    if (failure.status !== 401) outcome.failed(t((m) => what(failureText(failure, m), m)));
  }

  async function loadTests(): Promise<void> {
    try {
      setTests(await api.knowledge.GetRetrievalTests({ collection_id: collection.id }, { signal }));
    } catch (err) {
      if (!signal.aborted) complain(err, (reason, m) => m.retrieval.loadFailed(reason));
    }
  }

  useEffect(() => {
    void loadTests();
    // Chat's threshold for the verdict column. When it cannot be had, the column is left out
    // rather than judged against a guessed number.
    api.chat
      .GetAnswerSettings({ collection_id: collection.id }, { signal })
      .then((settings) => setThreshold(settings.min_similarity))
      .catch(() => setThreshold(undefined));
  }, [collection.id]);

  async function search(event: Event): Promise<void> {
    event.preventDefault();
    const text = question.trim();
    if (!text) return;
    setSearching(true);
    try {
      const results = await api.knowledge.GetQuery(
        { text, top, mode, collection_id: collection.id, ...activeFilters(filters.value) },
        { signal },
      );
      outcome.clear();
      setSearched({ question: text, results });
    } catch (err) {
      complain(err, (reason, m) => m.retrieval.searchFailed(reason));
    } finally {
      setSearching(false);
    }
  }

  async function save(result: QueryResult): Promise<void> {
    if (!searched) return;
    try {
      await api.knowledge.PostRetrievalTest(
        {
          body: {
            collection_id: collection.id,
            question: searched.question,
            file_id: result.file_id,
            page: result.page,
          },
        },
        { signal },
      );
      outcome.done(t((m) => m.retrieval.saved));
      await loadTests();
    } catch (err) {
      complain(err, (reason, m) => m.retrieval.notSaved(reason));
    }
  }

  async function remove(test: RetrievalTest): Promise<void> {
    const sure = await confirmDialog((m) => ({
      title: m.retrieval.removeTitle,
      message: m.retrieval.removeMessage(test.question),
      confirm: m.retrieval.remove,
      danger: true,
    }));
    if (!sure) return;
    try {
      await api.knowledge.DeleteRetrievalTest({ id: test.id }, { signal });
      outcome.done(t((m) => m.retrieval.removed));
      setRun(undefined);
      await loadTests();
    } catch (err) {
      complain(err, (reason, m) => m.retrieval.notRemoved(reason));
    }
  }

  async function runSet(): Promise<void> {
    setRunning(true);
    try {
      setRun(
        await api.knowledge.PostRetrievalTestRun(
          { body: { collection_id: collection.id, mode, top } },
          { signal },
        ),
      );
      outcome.clear();
    } catch (err) {
      complain(err, (reason, m) => m.retrieval.runFailed(reason));
    } finally {
      setRunning(false);
    }
  }

  const value = (event: Event) => (event.currentTarget as HTMLInputElement).value;
  return (
    <section class="retrieval-page" aria-labelledby="retrieval-heading">
      <h2 id="retrieval-heading">{m.section}</h2>
      <p class="hint">{m.intro}</p>
      <OutcomeLines outcome={outcome} />
      <form class="retrieval-form" onSubmit={(event) => void search(event)}>
        <Field label={m.question} class="retrieval-question-field">
          {({ id }) => (
            <input
              id={id}
              type="text"
              enterKeyHint="search"
              value={question}
              maxLength={8000}
              required
              onInput={(event) => setQuestion(value(event))}
            />
          )}
        </Field>
        <Field label={m.mode} class="role">
          {({ id }) => (
            <select id={id} value={mode} onChange={(event) => setMode(value(event) as SearchMode)}>
              {SEARCH_MODES.map((option) => (
                <option key={option} value={option}>
                  {m.modes[option]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={m.top} class="role">
          {({ id }) => (
            <select id={id} value={top} onChange={(event) => setTop(Number(value(event)))}>
              {TOPS.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" class="button primary" disabled={searching}>
          {searching ? m.searching : m.search}
        </button>
        <FilterBar filters={filters} />
      </form>
      {searched &&
        (searched.results.length === 0 ? (
          <p class="empty">{m.noResults}</p>
        ) : (
          <ResultList
            results={searched.results}
            threshold={threshold}
            onSave={editor ? (result) => void save(result) : undefined}
          />
        ))}
      <TestSet
        tests={tests}
        run={run}
        running={running}
        onRun={() => void runSet()}
        onDelete={editor ? (test) => void remove(test) : undefined}
      />
    </section>
  );
}
