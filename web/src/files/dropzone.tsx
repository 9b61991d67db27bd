import { useRef } from 'preact/hooks';
import { messages } from '../i18n/messages';

/**
 * What the file picker offers: the formats the service reads, by extension and type. It is a
 * hint to the picker only — the service tells formats apart by their bytes and refuses
 * anything else (415), whatever the name says.
 */
export const ACCEPTED_FILES = [
  '.pdf',
  'application/pdf',
  '.docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.html',
  '.htm',
  'text/html',
  '.md',
  '.markdown',
  'text/markdown',
  '.txt',
  'text/plain',
].join(',');

export interface DropzoneProps {
  dragging: boolean;
  hidden: boolean;
  /**
   * The collection has files: the picker's button alone takes the dropzone's room (the list
   * needs it), and the drop target opens while files are dragged over the panel.
   */
  collapsed?: boolean;
  onFiles(files: File[]): void;
}

/**
 * Where files come in: the drop target's content and the file picker behind its button.
 * Dropping itself is handled by the whole panel (see files-panel.tsx), so that a file dropped
 * anywhere on it counts.
 */
export function Dropzone({ dragging, hidden, collapsed, onFiles }: DropzoneProps) {
  const picker = useRef<HTMLInputElement>(null);
  const m = messages();
  const closed = collapsed && !dragging;
  return (
    <div
      class={closed ? 'dropzone collapsed' : dragging ? 'dropzone dragging' : 'dropzone'}
      hidden={hidden}
    >
      {/* One button in both states, so that it stays the same element (and keeps the focus)
          when the dropzone folds or opens. */}
      {!closed && <p class="dropzone-title">{m.files.dropHere}</p>}
      {!closed && <p class="dropzone-or">{m.files.or}</p>}
      <button
        type="button"
        class={closed ? 'button primary' : 'button'}
        title={closed ? m.files.dropHint : undefined}
        onClick={() => picker.current?.click()}
      >
        {m.files.choose}
      </button>
      {!closed && <p class="hint">{m.files.dropHint}</p>}
      <input
        ref={picker}
        type="file"
        multiple
        accept={ACCEPTED_FILES}
        class="visually-hidden"
        tabindex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const input = event.currentTarget;
          onFiles([...(input.files ?? [])]);
          input.value = '';
        }}
      />
    </div>
  );
}
