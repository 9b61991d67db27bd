import type { ComponentChildren } from 'preact';
import type { ChatSource, ConversationMessage } from '../api/services';
import { SourceScores } from '../chat/sources';
import { asStreamed } from '../chat/stored-answer';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { Markdown } from '../markdown/markdown';

export type Reviewed = ConversationMessage & {
  conversation_id: string;
  username: string;
  resolved_at?: string | null;
  closest_passages?: ChatSource[];
};

function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="review-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * One answer marked as not helpful: the question, the answer as given, why, who and when; for a
 * refusal the passages that came closest; and whether a super admin has dealt with it.
 */
export function ReviewItem({
  reviewed,
  onResolve,
}: {
  reviewed: Reviewed;
  onResolve?: (resolved: boolean) => void;
}) {
  const m = messages().conversations;
  const g = messages().gaps;
  const resolvedAt = reviewed.resolved_at ?? null;
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
        {reviewed.closest_passages && reviewed.closest_passages.length > 0 && (
          <Field label={g.reviewClosest}>
            <SourceScores sources={reviewed.closest_passages} />
          </Field>
        )}
        <Field label={m.commentLabel}>
          {comment ? <p class="review-comment">{comment}</p> : <p class="muted">{m.noComment}</p>}
        </Field>
        <Field label={m.user}>
          <span class="review-user">{reviewed.username}</span>
          <p class="hint">{g.reviewWhose(reviewed.username)}</p>
        </Field>
        <Field label={m.markedAt}>
          <time dateTime={at}>{formatDate(at)}</time>
        </Field>
      </dl>
      <div class="actions">
        {resolvedAt && (
          <span class="badge review-resolved">{g.reviewResolvedAt(formatDate(resolvedAt))}</span>
        )}
        {onResolve && (
          <button type="button" class="button" onClick={() => onResolve(!resolvedAt)}>
            {resolvedAt ? g.reviewReopen : g.reviewResolve}
          </button>
        )}
      </div>
    </li>
  );
}
