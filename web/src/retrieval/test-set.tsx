import { formatDecimal2, formatInteger } from '../i18n/format';
import { messages } from '../i18n/messages';
import { sourcePlace } from '../source-place';
import type { RetrievalTest, RetrievalTestRun } from './types';

/**
 * The collection's saved questions with the file (and page) each expects, and after a run
 * where each was found. Rows are cards on a phone (retrieval.css), like the results.
 */
export function TestSet(props: {
  tests: readonly RetrievalTest[];
  run: RetrievalTestRun | undefined;
  running: boolean;
  onRun: () => void;
  /** Deletes a saved question; undefined: the caller may not. */
  onDelete?: (test: RetrievalTest) => void;
}) {
  const m = messages().retrieval;
  const { tests, run } = props;
  const caseOf = (id: number) => run?.cases.find((c) => c.id === id);
  return (
    <section class="retrieval-set" aria-labelledby="retrieval-set-heading">
      <h2 id="retrieval-set-heading">{m.setHeading}</h2>
      <p class="hint">{m.setIntro(tests.length)}</p>
      {tests.length > 0 && (
        <>
          <p class="retrieval-run">
            <button
              type="button"
              class="button"
              disabled={props.running}
              onClick={() => props.onRun()}
            >
              {props.running ? m.running : m.run}
            </button>
            {run && (
              <output class="retrieval-summary">
                {m.runSummary(run.hit_rate, run.mrr, run.cases.length, run.top)}
              </output>
            )}
          </p>
          {/* Hit rate and MRR are a search engineer's words: said plainly under the summary. */}
          {run && <p class="hint retrieval-summary-hint">{m.runSummaryHint(run.top)}</p>}
          <table class="retrieval-results retrieval-tests">
            <caption class="visually-hidden">{m.setHeading}</caption>
            <thead>
              <tr>
                <th scope="col">{m.question}</th>
                <th scope="col">{m.expected}</th>
                {run && <th scope="col">{m.runRank}</th>}
                {run && <th scope="col">{m.similarity}</th>}
                {props.onDelete && (
                  <th scope="col">
                    <span class="visually-hidden">{m.remove}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {tests.map((test) => {
                const found = caseOf(test.id);
                return (
                  <tr key={test.id}>
                    <td data-label={m.question} class="retrieval-question">
                      {test.question}
                    </td>
                    <td data-label={m.expected}>
                      {test.file_name ?? <em>{m.fileDeleted}</em>}
                      {' · '}
                      {test.page === null
                        ? m.anyPage
                        : sourcePlace({ page: test.page, section: test.section })}
                    </td>
                    {run && (
                      <td data-label={m.runRank}>
                        {found?.rank == null ? (
                          <span class="verdict fail">✗ {m.missed}</span>
                        ) : (
                          <span class="verdict pass">✓ {formatInteger(found.rank)}</span>
                        )}
                      </td>
                    )}
                    {run && (
                      <td data-label={m.similarity}>
                        {found?.similarity == null ? m.none : formatDecimal2(found.similarity)}
                      </td>
                    )}
                    {props.onDelete && (
                      <td class="retrieval-actions">
                        <button
                          type="button"
                          class="button small danger-outline"
                          aria-label={m.removeNamed(test.question)}
                          onClick={() => props.onDelete!(test)}
                        >
                          {m.remove}
                        </button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
