import { useLayoutEffect, useRef } from 'preact/hooks';
import { messages } from '../i18n/messages';
import { clearMarks, markSentences } from './support-marks';
import type { SentenceSupport } from './stored-answer';

/**
 * Under an answer: how many of its sentences the passages they cite do not hold, each quoted
 * with the figures no passage has, and the same sentences marked in the answer itself (with
 * words for screen readers). Nothing when every sentence was found, or the answer was not
 * checked.
 */
export function SupportNote({ support }: { support: readonly SentenceSupport[] | null }) {
  const m = messages();
  const note = useRef<HTMLElement>(null);
  const unsupported = (support ?? []).filter((sentence) => !sentence.supported);
  const texts = unsupported.map((sentence) => sentence.text);
  const key = JSON.stringify(texts);
  // The answer is the bubble's Markdown, rendered before this note (an earlier sibling).
  useLayoutEffect(() => {
    const answer = note.current?.parentElement?.querySelector('.markdown');
    if (!answer) return;
    if (texts.length > 0) markSentences(answer, texts, m.support.marked);
    else clearMarks(answer);
  }, [key, m]);
  if (unsupported.length === 0) return <section class="support-note" ref={note} hidden />;
  return (
    <section class="support-note" ref={note}>
      <p class="support-title">
        <strong>{m.support.notFound(unsupported.length)}</strong>
      </p>
      <ul class="support-list">
        {unsupported.map((sentence) => (
          <li key={sentence.sentence_index}>
            <q>{sentence.text}</q>
            {sentence.missing && sentence.missing.length > 0 && (
              <span class="support-missing">{m.support.missing(sentence.missing)}</span>
            )}
          </li>
        ))}
      </ul>
      <p class="support-explain">{m.support.explain}</p>
    </section>
  );
}
