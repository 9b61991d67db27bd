import type { ComponentChildren, RefObject, VNode } from 'preact';
import { useState } from 'preact/hooks';
import type { KnowledgeFile } from '../api/services';
import { DownloadLink } from '../components/download-link';
import { useActionLook } from '../components/menu-button';
import { retryCanHelp } from '../file-status';
import { messages } from '../i18n/messages';
import { chunksLink } from '../main/route';
import { UploadVersionButton } from '../versions/version-actions';
import type { FileRowActions } from './file-row';

type Working = (on: boolean) => void;

/**
 * A row's actions: those shown in it, and those under its More menu. A reader has at most
 * three (Download, Chunks, Versions) and sees them all. A manager sees the one or two most
 * used for the file's state (a ready file's Download and Chunks, a failed file's Retry and
 * Delete, Download while it is on its way), the rest under More: eight buttons in a row were
 * too many to read at a glance.
 */
export function rowActions(
  file: KnowledgeFile,
  canManage: boolean,
  actions: FileRowActions,
  retryButton: RefObject<HTMLButtonElement | null>,
): { inline: VNode[]; more: VNode[] } {
  const m = messages();
  const ready = file.status === 'ready';
  const failed = file.status === 'failed';
  const off = file.enabled === false;
  const download = (
    <DownloadLink
      key="download"
      class="button small"
      file={file}
      label={m.files.downloadNamed(file.name)}
    >
      {m.files.download}
    </DownloadLink>
  );
  const chunks = (
    <a
      key="chunks"
      class="button small"
      href={chunksLink(file.id)}
      aria-label={m.files.chunksNamed(file.name)}
    >
      {m.files.chunks}
    </a>
  );
  const versions = (
    <RowButton
      key="versions"
      label={m.versions.historyNamed(file.name)}
      run={(working) => actions.showVersions(file, working)}
    >
      {m.versions.history}
    </RowButton>
  );
  if (!canManage)
    return { inline: ready ? [download, chunks, versions] : [download, versions], more: [] };

  const retry = (
    <RowButton
      key="retry"
      buttonRef={retryButton}
      hidden={!(failed && retryCanHelp(file))}
      label={m.files.retryNamed(file.name)}
      // Marked busy rather than disabled: a disabled button loses the focus to the page.
      busyAs="aria-disabled"
      run={(working) => actions.retry(file, working)}
    >
      {m.files.retry}
    </RowButton>
  );
  const remove = (
    <RowButton
      key="delete"
      danger
      label={m.files.deleteNamed(file.name)}
      run={(working) => actions.remove(file, working)}
    >
      {m.files.delete}
    </RowButton>
  );
  const newVersion = (ready || failed) && !file.replaces && (
    <UploadVersionButton
      key="upload-version"
      file={file}
      upload={(picked, working) => actions.uploadVersion(file, picked, working)}
    />
  );
  const move = (
    <RowButton
      key="move"
      label={m.collections.moveNamed(file.name)}
      run={(working) => actions.move(file, working)}
    >
      {m.collections.move}
    </RowButton>
  );
  const present = (list: (VNode | false)[]) => list.filter((action): action is VNode => !!action);
  if (failed)
    return { inline: [retry, remove], more: present([download, versions, newVersion, move]) };
  if (!ready) return { inline: [download], more: [versions, move, remove] };
  const switchFile = (
    <RowButton
      key="switch"
      label={off ? m.files.switchOnNamed(file.name) : m.files.switchOffNamed(file.name)}
      run={(working) => actions.switchFile(file, off, working)}
    >
      {off ? m.files.switchOn : m.files.switchOff}
    </RowButton>
  );
  const editDetails = (
    <RowButton
      key="edit-details"
      label={m.metadata.editDetailsNamed(file.name)}
      run={(working) => actions.editDetails(file, working)}
    >
      {m.metadata.editDetails}
    </RowButton>
  );
  return {
    inline: [download, chunks],
    more: present([versions, newVersion, switchFile, editDetails, move, remove]),
  };
}

interface RowButtonProps {
  children: ComponentChildren;
  /** What it does to which file ("Delete a.pdf"). */
  label: string;
  danger?: boolean;
  hidden?: boolean;
  buttonRef?: RefObject<HTMLButtonElement | null>;
  /** How a busy button shows it; a busy button does nothing when clicked. */
  busyAs?: 'disabled' | 'aria-disabled';
  run(working: Working): Promise<void>;
}

function RowButton({ children, label, danger, hidden, buttonRef, busyAs, run }: RowButtonProps) {
  const [busy, setBusy] = useState(false);
  const ariaOnly = busyAs === 'aria-disabled';
  const look = useActionLook(
    danger ? 'button small danger-outline' : 'button small',
    danger ? 'menu-item danger' : 'menu-item',
  );
  return (
    <button
      ref={buttonRef}
      type="button"
      {...look}
      aria-label={label}
      hidden={hidden}
      disabled={busy && !ariaOnly}
      aria-disabled={busy && ariaOnly ? 'true' : undefined}
      onClick={() => {
        if (busy) return;
        void run(setBusy).finally(() => setBusy(false));
      }}
    >
      {children}
    </button>
  );
}
