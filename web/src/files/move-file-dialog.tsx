import type { Collection } from '../api/services';
import { collectionName } from '../collection-access';
import { Dialog, DialogActions, openDialog } from '../components/dialog';
import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import { now } from '../i18n/bind';
import { messages } from '../i18n/messages';

/**
 * Asks where a file goes: one of `targets` (the collections the user may add files to, other
 * than the file's own). With none, says why and offers nothing to choose.
 */
export function moveFileDialog(
  fileName: string,
  targets: readonly Collection[],
): Promise<Collection | undefined> {
  return openDialog<Collection | undefined>((done) => {
    const m = messages();
    const title = m.collections.moveTitle(fileName);
    if (targets.length === 0) {
      return (
        <Dialog title={title}>
          <p>{m.collections.noTarget}</p>
          <DialogActions>
            <button type="button" class="button" autofocus onClick={() => done(undefined)}>
              {m.dialogs.cancel}
            </button>
          </DialogActions>
        </Dialog>
      );
    }
    return (
      <FormDialog
        title={title}
        message={m.collections.moveMessage}
        submit={m.collections.moveConfirm}
        onCancel={() => done(undefined)}
        onSubmit={(data) => done(targets.find((target) => target.id === data.get('collection')))}
      >
        <Field label={m.collections.moveTo}>
          {({ id }) => (
            <select id={id} name="collection" autofocus>
              {targets.map((target) => (
                <option key={target.id} value={target.id}>
                  {now(collectionName(target))}
                </option>
              ))}
            </select>
          )}
        </Field>
      </FormDialog>
    );
  }, undefined);
}
