import type { Collection } from './api/services';
import type { AppContext } from './context';
import { openDialog } from './dialog';
import { h, replace, uid } from './dom';
import { t } from './i18n/bind';
import { failureText } from './i18n/failure';

/**
 * Asks for a name and a description and creates the collection (any user may; they own it).
 * A refusal is shown in the dialog, so that what was typed is not lost; the new collection,
 * or undefined when cancelled.
 */
export function newCollectionDialog(ctx: AppContext): Promise<Collection | undefined> {
  return openDialog<Collection | undefined>((_dialog, done) => {
    const nameId = uid('collection-name');
    const descriptionId = uid('collection-description');
    const name = h('input', {
      id: nameId,
      name: 'name',
      autocomplete: 'off',
      required: true,
      maxlength: 100,
    });
    const description = h('textarea', {
      id: descriptionId,
      name: 'description',
      rows: 3,
      maxlength: 1000,
    });
    const problem = h('p', { class: 'notice error', role: 'alert', hidden: true });
    const create = h(
      'button',
      { type: 'submit', class: 'button primary' },
      t((m) => m.collections.create),
    );

    async function submit(): Promise<void> {
      create.disabled = true;
      try {
        done(
          await ctx.api.knowledge.PostCollection(
            { body: { name: name.value.trim(), description: description.value.trim() } },
            { signal: ctx.signal },
          ),
        );
      } catch (err) {
        const failure = ctx.fail(err);
        if (failure.status === 401) return done(undefined);
        problem.hidden = false;
        replace(
          problem,
          t((m) => m.collections.notCreated(failureText(failure, m))),
        );
      } finally {
        create.disabled = false;
      }
    }

    const form = h(
      'form',
      {
        on: {
          submit: (event) => {
            event.preventDefault();
            if (form.reportValidity() && name.value.trim()) void submit();
          },
        },
      },
      h(
        'h2',
        null,
        t((m) => m.collections.newCollectionTitle),
      ),
      h(
        'p',
        null,
        t((m) => m.collections.newCollectionMessage),
      ),
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: nameId },
          t((m) => m.collections.name),
        ),
        name,
      ),
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: descriptionId },
          t((m) => m.collections.description),
        ),
        description,
      ),
      problem,
      h(
        'div',
        { class: 'dialog-actions' },
        h(
          'button',
          { type: 'button', class: 'button', on: { click: () => done(undefined) } },
          t((m) => m.dialogs.cancel),
        ),
        create,
      ),
    );
    queueMicrotask(() => name.focus());
    return [form];
  }, undefined);
}
