import type { ChatSource } from '../api/services';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { documentLink } from '../main/route';

/**
 * Beside a source of a stored answer: what became of its file since (a newer version, named
 * and dated, with a link to open it; deleted; no longer readable). Nothing while it is as it
 * was, or when that is not known. Whoever checks an old answer must not take an old version
 * for the one in force without being told.
 */
export function SourceNow({ now }: { now: ChatSource['now'] }) {
  const m = messages().sourcesNow;
  if (!now || now.state === 'current') return null;
  if (now.state === 'superseded') {
    const current = now.current;
    const since = now.superseded_at ? formatDate(now.superseded_at) : null;
    // An older version made current again after this one is no newer version.
    const restored = current && now.version !== undefined && current.version < now.version;
    const text = !current
      ? m.notCurrentText
      : restored
        ? m.restoredText(current.name, current.version)
        : m.newerText(current.name, current.version, since);
    return (
      <>
        <Badge
          state="superseded"
          word={current && !restored ? m.newer : m.notCurrent}
          text={text}
        />
        {current && (
          <a
            class="source-current"
            href={documentLink(current.id)}
            aria-label={m.openCurrentNamed(current.name)}
          >
            {m.openCurrent(current.name, since)}
          </a>
        )}
      </>
    );
  }
  if (now.state === 'deleted')
    return <Badge state="deleted" word={m.deleted} text={m.deletedText} />;
  if (now.state === 'unavailable') {
    return <Badge state="unavailable" word={m.unavailable} text={m.unavailableText} />;
  }
  return null;
}

/** The badge's word, read as its fuller text (which says it too), in a tooltip as well. */
function Badge({ state, word, text }: { state: string; word: string; text: string }) {
  return (
    <span class="badge source-now" data-now={state} title={text}>
      <span aria-hidden="true">{word}</span>
      <span class="visually-hidden">{text}</span>
    </span>
  );
}
