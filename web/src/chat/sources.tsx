import type { ChatSource } from '../api/services';
import { collectionName, SHARED_COLLECTION_ID } from '../collection-access';
import { ValidityBadge } from '../components/validity-badge';
import { now } from '../i18n/bind';
import { formatDecimal2 } from '../i18n/format';
import { messages } from '../i18n/messages';
import { documentLink } from '../main/route';
import { useEffect } from 'preact/hooks';
import { preparePdfViewer } from '../viewer/pdf-engine';
import { sourcePlace } from '../source-place';
import { SourceNow } from './source-now';
import { orderSources, type NumberedSource } from './source-order';

export interface SourcesProps {
  sources: readonly ChatSource[];
  /** The prompt the service built (when it echoes it): behind the details, with the scores. */
  echo?: string | undefined;
}

/**
 * What an answer drew on: the sources it cites, in the order it cites them, each opening the
 * document viewer at the cited passage, with its document's number (文号) and a badge when the
 * document no longer holds or its file was replaced or deleted since; what was retrieved but
 * not cited under a fold; the scores, passage ids and the prompt behind "Details", for those
 * who want them.
 */
export function Sources({ sources, echo }: SourcesProps) {
  const m = messages();
  const { cited, others } = orderSources(sources);
  const citesPdf = sources.some(isPdf);
  useEffect(() => {
    if (citesPdf) preparePdfViewer();
  }, [citesPdf]);
  return (
    <section class="sources" hidden={sources.length === 0 && echo === undefined}>
      {cited.length > 0 && (
        <>
          <h3>{m.chat.sources}</h3>
          <SourceList rows={cited} />
        </>
      )}
      {others.length > 0 && (
        <details class="also-retrieved">
          <summary>{m.chat.alsoRetrieved(others.length)}</summary>
          <SourceList rows={others} />
        </details>
      )}
      <details class="source-details">
        <summary>{m.chat.details}</summary>
        {sources.length > 0 && <SourceScores sources={sources} />}
        {echo !== undefined && (
          <>
            <h4>{m.chat.context}</h4>
            <pre class="context-text" tabIndex={0}>
              {echo}
            </pre>
          </>
        )}
      </details>
    </section>
  );
}

/**
 * Every source as the service told it, in its number's order: where, how similar, whether the
 * answer cites it, and the passage's id; each opens the viewer. Behind "Details" under an
 * answer; shown as is on the unhelpful answers review.
 */
export function SourceScores({ sources }: { sources: readonly ChatSource[] }) {
  const m = messages();
  return (
    <table class="source-scores">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{m.chat.detailsFile}</th>
          <th scope="col">{m.chat.detailsSimilarity}</th>
          <th scope="col">{m.chat.detailsCited}</th>
          <th scope="col">{m.chat.detailsPassage}</th>
        </tr>
      </thead>
      <tbody>
        {sources.map((source, index) => (
          <tr key={index}>
            <td>{index + 1}</td>
            <td>
              <a href={documentLink(source.file_id, source.page, source.chunk_id)}>
                {source.file_name}
              </a>{' '}
              · {sourcePlace(source)}
            </td>
            <td>{source.similarity === null ? '—' : formatDecimal2(source.similarity)}</td>
            <td>{source.citation == null ? '—' : m.chat.citedAs(source.citation)}</td>
            <td>{source.chunk_id ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A source in a PDF: its pages have a text source, or its name says so. */
const isPdf = (source: ChatSource) =>
  (source.text_source != null && !source.section) || /\.pdf$/i.test(source.file_name);

function SourceList({ rows }: { rows: NumberedSource[] }) {
  const m = messages();
  return (
    <ol class="source-list">
      {rows.map(({ number, source }) => {
        const { collection_id: id, collection_name: name } = source;
        return (
          <li key={number}>
            <span class="source-number">[{number}]</span>
            <a
              class="source-link"
              href={documentLink(source.file_id, source.page, source.chunk_id)}
              aria-label={m.chat.openSource(number, source.file_name, sourcePlace(source))}
              title={source.title ?? undefined}
            >
              {source.file_name}
            </a>
            {/* People know a document by its number (文号) more than by its file's name. */}
            {source.doc_number && <span class="source-doc-number">{source.doc_number}</span>}
            {/* Beside the name: whoever checks the answer against this source must see at once
                that its document no longer holds (as it stands now, when that is known). */}
            <ValidityBadge validity={source.now?.validity ?? source.validity} look="compact" />
            <SourceNow now={source.now} />
            <span class="source-meta">{sourcePlace(source)}</span>
            {source.text_source === 'ocr' && (
              <span class="badge source-ocr" title={m.chat.ocrBadgeTitle}>
                {m.chat.ocrBadge}
              </span>
            )}
            {/* Files of the shared collection are the usual case: only others name theirs. */}
            {id && id !== SHARED_COLLECTION_ID && (
              <span class="badge source-collection">{now(collectionName({ id, name }))}</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
