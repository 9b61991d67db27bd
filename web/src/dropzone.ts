import { h } from './dom';
import { t } from './i18n/bind';

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

/**
 * Where files come in: the drop target's content and the file picker behind its button.
 * Dropping itself is handled by the whole panel (see files-panel.ts), so that a file dropped
 * anywhere on it counts.
 */
export function createDropzone(onFiles: (files: File[]) => void): HTMLElement {
  const picker = h('input', {
    type: 'file',
    multiple: true,
    accept: ACCEPTED_FILES,
    class: 'visually-hidden',
    tabindex: -1,
    'aria-hidden': 'true',
    on: {
      change: () => {
        onFiles([...(picker.files ?? [])]);
        picker.value = '';
      },
    },
  });
  return h(
    'div',
    { class: 'dropzone' },
    h(
      'p',
      { class: 'dropzone-title' },
      t((m) => m.files.dropHere),
    ),
    h(
      'p',
      { class: 'dropzone-or' },
      t((m) => m.files.or),
    ),
    h(
      'button',
      { type: 'button', class: 'button', on: { click: () => picker.click() } },
      t((m) => m.files.choose),
    ),
    h(
      'p',
      { class: 'hint' },
      t((m) => m.files.dropHint),
    ),
    picker,
  );
}
