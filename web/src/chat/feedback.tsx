import { useState } from 'preact/hooks';
import type { Feedback as FeedbackMark, FeedbackRating } from '../api/services';
import { useUniqueId } from '../components/unique-id';
import { useApp } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { commentDialog } from './comment-dialog';

export interface FeedbackProps {
  messageId: string;
  initial: FeedbackMark | null;
  announce(text: Localized): void;
}

/**
 * The two feedback buttons under an answer: helpful / not helpful, each a toggle (pressed
 * again, the mark is taken back). "Not helpful" first asks for an optional comment and says
 * that such answers are shared with administrators for review.
 */
export function Feedback({ messageId, initial, announce }: FeedbackProps) {
  const ctx = useApp();
  const labelId = useUniqueId('feedback-label');
  const [feedback, setFeedback] = useState(initial);
  const [busy, setBusy] = useState(false);
  const m = messages();
  const comment = feedback?.rating === 'unhelpful' ? feedback.comment : null;

  async function choose(rating: FeedbackRating): Promise<void> {
    if (busy) return;
    let next: FeedbackRating | null = rating;
    let note: string | undefined;
    if (feedback?.rating === rating) next = null;
    else if (rating === 'unhelpful') {
      const asked = await commentDialog();
      if (asked === undefined) return;
      note = asked || undefined;
    }
    setBusy(true);
    try {
      const answer = await ctx.api.chat.PutMessageFeedback(
        { body: { message_id: messageId, rating: next, comment: note } },
        { signal: ctx.signal },
      );
      setFeedback(answer.feedback);
      announce(
        t((words) =>
          next === 'helpful'
            ? words.conversations.thanksHelpful
            : next === 'unhelpful'
              ? words.conversations.thanksUnhelpful
              : words.conversations.feedbackRemoved,
        ),
      );
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401) {
        announce(t((words) => words.conversations.feedbackFailed(failureText(failure, words))));
      }
    } finally {
      setBusy(false);
    }
  }

  const button = (rating: FeedbackRating, label: string) => (
    <button
      type="button"
      class="button small feedback-button"
      data-rating={rating}
      aria-pressed={feedback?.rating === rating}
      disabled={busy}
      onClick={() => void choose(rating)}
    >
      {label}
    </button>
  );
  return (
    <div class="feedback" data-rating={feedback?.rating ?? ''}>
      <div class="feedback-row" role="group" aria-labelledby={labelId}>
        <span class="feedback-label" id={labelId}>
          {m.conversations.feedbackGroup}
        </span>
        {button('helpful', m.conversations.helpful)}
        {button('unhelpful', m.conversations.unhelpful)}
      </div>
      <p class="feedback-comment" hidden={!comment}>
        {comment && m.conversations.yourComment(comment)}
      </p>
    </div>
  );
}
