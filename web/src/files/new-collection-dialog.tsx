import type { Collection } from '../api/services';
import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import { openDialog } from '../components/dialog';
import type { AppContext } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';

/**
 * Asks for a name and a description and creates the collection (any user may; they own it).
 * A refusal is shown in the dialog, so that what was typed is not lost; the new collection,
 * or undefined when cancelled.
 */
export function newCollectionDialog(ctx: AppContext): Promise<Collection | undefined> {
  return openDialog<Collection | undefined>((done) => {
    const m = messages();
    return (
      <FormDialog
        title={m.collections.newCollectionTitle}
        message={m.collections.newCollectionMessage}
        submit={m.collections.create}
        onCancel={() => done(undefined)}
        onSubmit={async (data) => {
          const name = String(data.get('name')).trim();
          if (!name) return;
          try {
            const description = String(data.get('description')).trim();
            done(
              await ctx.api.knowledge.PostCollection(
                { body: { name, description } },
                { signal: ctx.signal },
              ),
            );
          } catch (err) {
            const failure = ctx.fail(err);
            if (failure.status === 401) return done(undefined);
            return t((m) => m.collections.notCreated(failureText(failure, m)));
          }
        }}
      >
        <Field label={m.collections.name}>
          {({ id }) => (
            <input id={id} name="name" autocomplete="off" required maxLength={100} autofocus />
          )}
        </Field>
        <Field label={m.collections.description}>
          {({ id }) => <textarea id={id} name="description" rows={3} maxLength={1000} />}
        </Field>
      </FormDialog>
    );
  }, undefined);
}
