import { documentLink } from '../main/route';
import { formatDecimal2, formatInteger } from '../i18n/format';
import { messages } from '../i18n/messages';
import { sourcePlace } from '../source-place';
import { passesThreshold, type QueryResult } from './types';

/**
 * The ranked passages with why they ranked so: the similarity chat's threshold tests, the rank
 * in each list, and whether chat would use it. A table on a wide screen; on a phone each row
 * reads as a card (retrieval.css), every value named by its column.
 */
export function ResultList(props: {
  results: readonly QueryResult[];
  /** Chat's similarity threshold; undefined hides the verdict column (not known). */
  threshold: number | undefined;
  /** Saves the question with this result's file and page; undefined: the caller may not. */
  onSave?: (result: QueryResult) => void;
}) {
  const m = messages().retrieval;
  const { threshold } = props;
  const rankOf = (rank: number | undefined) => (rank === undefined ? m.none : formatInteger(rank));
  return (
    <table class="retrieval-results">
      <caption>{m.resultsHeading(props.results.length)}</caption>
      <thead>
        <tr>
          <th scope="col">{m.rank}</th>
          <th scope="col">{m.similarity}</th>
          <th scope="col">{m.vectorRank}</th>
          <th scope="col">{m.keywordRank}</th>
          <th scope="col">{m.foundBy}</th>
          {threshold !== undefined && (
            <th scope="col" title={m.passesTitle(threshold)}>
              {m.passes}
            </th>
          )}
          <th scope="col">{m.source}</th>
          <th scope="col">{m.passage}</th>
          {props.onSave && (
            <th scope="col">
              <span class="visually-hidden">{m.saveAsTest}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {props.results.map((result, index) => {
          const passes = passesThreshold(result.similarity, threshold);
          return (
            <tr key={result.id}>
              <td data-label={m.rank} class="retrieval-rank">
                {formatInteger(index + 1)}
              </td>
              <td data-label={m.similarity}>{formatDecimal2(result.similarity)}</td>
              <td data-label={m.vectorRank}>{rankOf(result.ranks.vector)}</td>
              <td data-label={m.keywordRank}>{rankOf(result.ranks.keyword)}</td>
              <td data-label={m.foundBy} class="retrieval-found-by">
                {result.found_by
                  .map((list) => (list === 'UNKNOWN' ? list : m.foundByList[list]))
                  // Where the cell must wrap (retrieval.css), the + stays with the list before it.
                  .join('\u00a0+ ')}
              </td>
              {passes !== undefined && threshold !== undefined && (
                <td data-label={m.passes} title={m.passesTitle(threshold)}>
                  <span class={passes ? 'verdict pass' : 'verdict fail'}>
                    {passes ? `✓ ${m.pass}` : `✗ ${m.fail}`}
                  </span>
                </td>
              )}
              <td data-label={m.source} class="retrieval-source">
                <a
                  href={documentLink(result.file_id, result.page, result.id)}
                  aria-label={`${result.file_name} · ${sourcePlace(result)}`}
                  title={m.openTitle(result.file_name, sourcePlace(result))}
                >
                  {result.file_name} · {sourcePlace(result)}
                </a>
              </td>
              <td data-label={m.passage} class="retrieval-passage">
                <p class="retrieval-text">{result.content}</p>
              </td>
              {props.onSave && (
                <td class="retrieval-actions">
                  <button
                    type="button"
                    class="button small"
                    title={m.saveAsTestTitle(result.file_name, sourcePlace(result))}
                    onClick={() => props.onSave!(result)}
                  >
                    {m.saveAsTest}
                  </button>
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
