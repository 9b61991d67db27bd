import { useRef } from 'preact/hooks';
import type { KnowledgeFile } from '../api/services';
import { MenuButton } from '../components/menu-button';
import { ProgressBar } from '../components/progress-bar';
import { DocumentDetails } from './document-details';
import { useUniqueId } from '../components/unique-id';
import { fileErrorText, progressShown } from '../file-progress-text';
import { isSearchable, retryCanHelp } from '../file-status';
import { now } from '../i18n/bind';
import { formatBytes, formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { NewVersionNote } from '../versions/version-actions';
import { rowActions } from './row-actions';

export interface FileRowActions {
  select(file: KnowledgeFile, selected: boolean): void;
  /** Each action calls `working(true)` once its request is under way (not while it asks). */
  remove(file: KnowledgeFile, working: Working): Promise<void>;
  retry(file: KnowledgeFile, working: Working): Promise<void>;
  move(file: KnowledgeFile, working: Working): Promise<void>;
  /** Corrects what the document says of itself and its relations (Edit details). */
  editDetails(file: KnowledgeFile, working: Working): Promise<void>;
  /** Switches the whole file off (never searched) or on again. */
  switchFile(file: KnowledgeFile, enabled: boolean, working: Working): Promise<void>;
  /** Uploads `picked` as the file's new version (the old one serves until it is ready). */
  uploadVersion(file: KnowledgeFile, picked: File, working: Working): Promise<void>;
  /** The file's versions, to download or restore. */
  showVersions(file: KnowledgeFile, working: Working): Promise<void>;
}

type Working = (on: boolean) => void;

export interface FileRowProps {
  file: KnowledgeFile;
  selected: boolean;
  /** Whoever may manage it (see collection-access.ts) may retry, move and delete it. */
  canManage: boolean;
  actions: FileRowActions;
}

/**
 * One file of the knowledge base: ready files can be ticked to limit questions to them (only
 * they are searched: the row says so, on hover and to screen readers); files on their way show
 * their progress, failed files why, with Retry.
 */
export function FileRow({ file, selected, canManage, actions }: FileRowProps) {
  const checkboxId = useUniqueId('file');
  const metaId = useUniqueId('file-meta');
  const noteId = useUniqueId('file-note');
  const retryButton = useRef<HTMLButtonElement>(null);
  const moreButton = useRef<HTMLButtonElement>(null);
  const m = messages();
  const searchable = isSearchable(file);
  const failed = file.status === 'failed';
  const off = file.enabled === false;
  const retryable = failed && retryCanHelp(file);
  const shown = progressShown(file, file.format);
  const badgeStatus = file.status === 'ready' || file.status === 'UNKNOWN' ? null : file.status;
  const { pages, chunks, size, format, uploader, created_at } = file;

  // Retry goes away once the retry is under way: its focus goes on to More first, while Retry
  // is still shown (a browser takes the focus from a hidden button to the page).
  if (!retryable && retryButton.current && document.activeElement === retryButton.current) {
    moreButton.current?.focus();
  }
  const { inline, more } = rowActions(file, canManage, actions, retryButton);

  return (
    <li
      class={selected ? 'file selected' : 'file'}
      data-file-id={file.id}
      data-status={file.status}
    >
      <input
        type="checkbox"
        id={checkboxId}
        checked={selected}
        disabled={!searchable}
        aria-describedby={searchable ? metaId : `${noteId} ${metaId}`}
        onChange={(event) => actions.select(file, event.currentTarget.checked)}
      />
      <div class="file-main">
        <div class="file-title">
          <label
            for={checkboxId}
            class="file-name"
            title={
              searchable
                ? m.files.selectTitle
                : failed
                  ? m.files.notSelectableFailed
                  : off
                    ? m.files.offNote
                    : m.files.notSelectableInProgress
            }
          >
            {file.name}
          </label>
          <span class={failed ? 'badge file-badge off' : 'badge file-badge'} hidden={!badgeStatus}>
            {badgeStatus && m.files.statusBadge(badgeStatus)}
          </span>
          {off && <span class="badge file-badge off">{m.files.offBadge}</span>}
        </div>
        <p class="file-meta" id={metaId}>
          {searchable
            ? format === 'pdf'
              ? m.files.meta(pages, chunks, formatBytes(size))
              : m.files.metaSections(pages, chunks, formatBytes(size))
            : `${m.files.format(format)} · ${formatBytes(size)}`}
          <br />
          {`${uploader.username} · `}
          <time datetime={created_at}>{formatDate(created_at)}</time>
        </p>
        <DocumentDetails file={file} />
        <NewVersionNote file={file} />
        {searchable && <TextSourceNote file={file} />}
        <ProgressBar
          label={m.files.progressProcessing(file.name)}
          fraction={shown?.fraction}
          text={shown ? now(shown.text) : ''}
          hidden={!shown}
        />
        <p class="file-status" hidden={!shown && !failed && file.status !== 'UNKNOWN'}>
          {shown
            ? now(shown.text)
            : failed
              ? fileErrorText(file.error, m)
              : file.status === 'UNKNOWN' && m.files.statusUnknown}
        </p>
        <p class="file-note" id={noteId} hidden={searchable}>
          {failed
            ? retryable || !canManage
              ? m.files.notSelectableFailed
              : m.files.retryWontHelp
            : off && file.status === 'ready'
              ? m.files.offNote
              : m.files.notSelectableInProgress}
        </p>
      </div>
      <div class="file-actions">
        {inline}
        {more.length > 0 && (
          <MenuButton
            key="more"
            buttonRef={moreButton}
            label={m.app.more}
            name={m.files.moreNamed(file.name)}
          >
            {more}
          </MenuButton>
        )}
      </div>
    </li>
  );
}

/**
 * Where a ready PDF's text came from, when not all of it from its text layer: pages read by
 * OCR (to check against the original before quoting) and pages whose broken characters were
 * repaired.
 */
function TextSourceNote({ file }: { file: KnowledgeFile }) {
  const m = messages();
  const ocrPages = file.ocr?.pages ?? 0;
  const repaired = file.repaired_pages ?? 0;
  if (ocrPages === 0 && repaired === 0) return null;
  return (
    <p class="file-source-note">
      {ocrPages > 0 && (
        <>
          <span class="badge">{m.chat.ocrBadge}</span>{' '}
          {m.files.ocrNote(ocrPages, file.ocr?.confidence ?? null)}{' '}
        </>
      )}
      {repaired > 0 && m.files.repairedNote(repaired)}
    </p>
  );
}
