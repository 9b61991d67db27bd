import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import { openDialog } from '../components/dialog';
import { messages } from '../i18n/messages';

/**
 * The comment for a "not helpful" mark, after saying that such answers are shared with
 * administrators: '' for none, undefined when cancelled.
 */
export function commentDialog(): Promise<string | undefined> {
  return openDialog<string | undefined>((done) => {
    const m = messages();
    return (
      <FormDialog
        title={m.conversations.unhelpfulTitle}
        message={m.conversations.unhelpfulShared}
        info
        submit={m.conversations.sendFeedback}
        onCancel={() => done(undefined)}
        onSubmit={(data) => done(String(data.get('comment')).trim())}
      >
        <Field label={m.conversations.comment} hint={m.conversations.commentHint}>
          {({ id, hintId }) => (
            <textarea
              id={id}
              name="comment"
              rows={3}
              maxLength={2000}
              aria-describedby={hintId}
              autofocus
            />
          )}
        </Field>
      </FormDialog>
    );
  }, undefined);
}
