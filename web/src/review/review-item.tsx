import type { ComponentChildren } from 'preact';
import type { ConversationMessage } from '../api/services';
import { SourceScores } from '../chat/sources';
import { asStreamed } from '../chat/stored-answer';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { Markdown } from '../markdown/markdown';

export type Reviewed = ConversationMessage & { conversation_id: string; username: string };

function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="review-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** One answer marked as not helpful: the question, the answer as given, why, who and when. */
export function ReviewItem({ reviewed }: { reviewed: Reviewed }) {
  const m = messages().conversations;
  const comment = reviewed.feedback?.comment;
  const at = reviewed.feedback?.at ?? reviewed.created_at;
  const answered = reviewed.status === 'complete' || reviewed.status === 'incomplete';
  return (
    <li class="card review-item" data-message-id={reviewed.id}>
      <dl>
        <Field label={m.question}>
          <p class="review-question">{reviewed.question}</p>
        </Field>
        <Field label={m.answer}>
          {answered ? (
            <Markdown class="markdown review-answer" source={asStreamed(reviewed.answer)} />
          ) : (
            <div class="markdown review-answer">
              <p>{reviewed.answer}</p>
            </div>
          )}
        </Field>
        {/* The reviewer sees what the answer drew on as is: scores, citations, passages. */}
        {reviewed.sources.length > 0 && (
          <Field label={m.sources}>
            <SourceScores sources={reviewed.sources} />
          </Field>
        )}
        <Field label={m.commentLabel}>
          {comment ? <p class="review-comment">{comment}</p> : <p class="muted">{m.noComment}</p>}
        </Field>
        <Field label={m.user}>
          <span class="review-user">{reviewed.username}</span>
        </Field>
        <Field label={m.markedAt}>
          <time dateTime={at}>{formatDate(at)}</time>
        </Field>
      </dl>
    </li>
  );
}
