import type { ChatSource } from '../api/services';
import { collectionName, SHARED_COLLECTION_ID } from '../collection-access';
import { DownloadLink } from '../components/download-link';
import { now } from '../i18n/bind';
import { messages, type Messages } from '../i18n/messages';

/** Where a source was found: its section's headings when it has them (formats without pages). */
const sourceMeta = (source: ChatSource, m: Messages) =>
  source.section
    ? m.chat.sourceSectionMeta(source.section, source.similarity)
    : m.chat.sourceMeta(source.page, source.similarity);

/** The passages an answer drew on, each a link to its file. */
export function Sources({ sources }: { sources: readonly ChatSource[] }) {
  const m = messages();
  return (
    <section class="sources" hidden={sources.length === 0}>
      <h3>{m.chat.sources}</h3>
      <ol class="source-list">
        {sources.map((source, index) => {
          const { collection_id: id, collection_name: name } = source;
          return (
            <li key={index} value={index + 1}>
              <DownloadLink file={{ id: source.file_id, name: source.file_name }}>
                {source.file_name}
              </DownloadLink>
              <span class="source-meta">{sourceMeta(source, m)}</span>
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
    </section>
  );
}
