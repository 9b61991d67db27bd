import { openDialog } from '../components/dialog';
import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import type { Localized } from '../i18n/bind';
import { messages } from '../i18n/messages';
import type { FileChunk } from './chunk-types';

/**
 * Corrects one chunk's text. `save` sends it and answers the chunk as stored, or why not (the
 * dialog stays open with the text typed); the dialog answers the saved chunk, or nothing when
 * cancelled.
 */
export function chunkEditDialog(
  chunk: FileChunk,
  save: (text: string) => Promise<FileChunk | Localized>,
): Promise<FileChunk | undefined> {
  return openDialog<FileChunk | undefined>((done) => {
    const m = messages();
    return (
      <FormDialog
        title={m.chunks.editTitle(chunk.index)}
        message={m.chunks.editMessage}
        submit={m.chunks.save}
        onCancel={() => done(undefined)}
        onSubmit={async (data) => {
          const text = String(data.get('text') ?? '').trim();
          const answer = await save(text);
          if ('select' in answer) return answer;
          done(answer);
        }}
      >
        <Field label={m.chunks.text}>
          {({ id }) => (
            <textarea
              id={id}
              name="text"
              class="chunk-editor"
              rows={12}
              required
              maxLength={20_000}
              autofocus
              defaultValue={chunk.text}
            />
          )}
        </Field>
        {chunk.original_text !== null && (
          <details class="chunk-original">
            <summary>{m.chunks.original}</summary>
            <p>{chunk.original_text}</p>
          </details>
        )}
      </FormDialog>
    );
  }, undefined);
}
