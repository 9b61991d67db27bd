import { messages } from '../i18n/messages';
import { documentLink } from '../main/route';
import { sourcePlace } from '../source-place';
import type { RefusalReason as Reason } from './turn-model';

export interface RefusalReasonProps {
  reason: Reason;
  /** Asks the question again within the closest passage's file alone. */
  onAskInFile?: (() => void) | undefined;
}

/**
 * Why no answer was given, in a reader's words: the closest passage found (a link that opens
 * it, for the reader to judge), what to do next (other words, or the question within that
 * file, which a chat limited to files answers from the file's own text), and the scores behind
 * "Why?" for whoever tunes the threshold.
 */
export function RefusalReason({ reason, onAskInFile }: RefusalReasonProps) {
  const m = messages();
  const { closest, similarity, threshold } = reason;
  return (
    <div class="refusal-reason">
      {closest ? (
        <>
          <p>
            {m.chat.refusalClosest}{' '}
            <a href={documentLink(closest.file_id, closest.page, closest.chunk_id)}>
              {closest.file_name}
            </a>{' '}
            · {sourcePlace(closest)}
          </p>
          <p>{m.chat.refusalNext}</p>
          {onAskInFile && (
            <button type="button" class="button small" onClick={onAskInFile}>
              {m.chat.refusalAskInFile(closest.file_name)}
            </button>
          )}
        </>
      ) : (
        <p>{m.chat.refusalNothing}</p>
      )}
      <details class="refusal-scores">
        <summary>{m.chat.refusalWhy}</summary>
        <p>{m.chat.refusalScores(similarity, threshold)}</p>
      </details>
    </div>
  );
}
