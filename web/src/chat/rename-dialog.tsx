import type { Conversation } from '../api/services';
import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import { openDialog } from '../components/dialog';
import type { AppContext } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';

/** The old title is selected once the dialog shows it, so that typing replaces it. */
function selectWhenShown(input: HTMLInputElement | null): void {
  if (input) queueMicrotask(() => input.select());
}

/** Asks for a conversation's new title and renames it; the renamed one, or undefined. */
export function renameDialog(
  ctx: AppContext,
  conversation: Conversation,
): Promise<Conversation | undefined> {
  return openDialog<Conversation | undefined>((done) => {
    const m = messages();
    return (
      <FormDialog
        title={m.conversations.renameTitle}
        submit={m.conversations.save}
        onCancel={() => done(undefined)}
        onSubmit={async (data) => {
          const title = String(data.get('title')).trim();
          if (!title) return;
          try {
            done(
              await ctx.api.chat.PutConversation(
                { body: { id: conversation.id, title } },
                { signal: ctx.signal },
              ),
            );
          } catch (err) {
            const failure = ctx.fail(err);
            if (failure.status === 401) return done(undefined);
            return t((m) => m.conversations.notRenamed(failureText(failure, m)));
          }
        }}
      >
        <Field label={m.conversations.title}>
          {({ id }) => (
            <input
              id={id}
              name="title"
              autocomplete="off"
              required
              maxLength={200}
              defaultValue={conversation.title}
              autofocus
              ref={selectWhenShown}
            />
          )}
        </Field>
      </FormDialog>
    );
  }, undefined);
}
