import type { Feedback, FeedbackRating } from './api/services';
import type { AppContext } from './context';
import { commentDialog } from './chat/comment-dialog';
import { h, replace, uid } from './dom';
import { t, type Localized } from './i18n/bind';
import { failureText } from './i18n/failure';

/**
 * The two feedback buttons under an answer: helpful / not helpful, each a toggle (pressed
 * again, the mark is taken back). "Not helpful" first asks for an optional comment and says
 * that such answers are shared with administrators for review.
 */
export function createFeedback(
  ctx: AppContext,
  messageId: string,
  initial: Feedback | null,
  announce: (text: Localized) => void,
): HTMLElement {
  let feedback = initial;
  let busy = false;
  const labelId = uid('feedback-label');

  const helpful = h(
    'button',
    {
      type: 'button',
      class: 'button small feedback-button',
      'data-rating': 'helpful',
      on: { click: () => void choose('helpful') },
    },
    t((m) => m.conversations.helpful),
  );
  const unhelpful = h(
    'button',
    {
      type: 'button',
      class: 'button small feedback-button',
      'data-rating': 'unhelpful',
      on: { click: () => void choose('unhelpful') },
    },
    t((m) => m.conversations.unhelpful),
  );
  const comment = h('p', { class: 'feedback-comment', hidden: true });
  const element = h(
    'div',
    { class: 'feedback' },
    h(
      'div',
      { class: 'feedback-row', role: 'group', 'aria-labelledby': labelId },
      h(
        'span',
        { class: 'feedback-label', id: labelId },
        t((m) => m.conversations.feedbackGroup),
      ),
      helpful,
      unhelpful,
    ),
    comment,
  );

  function render(): void {
    helpful.setAttribute('aria-pressed', String(feedback?.rating === 'helpful'));
    unhelpful.setAttribute('aria-pressed', String(feedback?.rating === 'unhelpful'));
    element.dataset.rating = feedback?.rating ?? '';
    const text = feedback?.rating === 'unhelpful' ? feedback.comment : null;
    comment.hidden = !text;
    replace(comment, text ? t((m) => m.conversations.yourComment(text)) : null);
  }
  render();

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
    busy = true;
    helpful.disabled = unhelpful.disabled = true;
    try {
      const answer = await ctx.api.chat.PutMessageFeedback(
        { body: { message_id: messageId, rating: next, comment: note } },
        { signal: ctx.signal },
      );
      feedback = answer.feedback;
      render();
      announce(
        t((m) =>
          next === 'helpful'
            ? m.conversations.thanksHelpful
            : next === 'unhelpful'
              ? m.conversations.thanksUnhelpful
              : m.conversations.feedbackRemoved,
        ),
      );
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401) {
        announce(t((m) => m.conversations.feedbackFailed(failureText(failure, m))));
      }
    } finally {
      busy = false;
      helpful.disabled = unhelpful.disabled = false;
    }
  }

  return element;
}
