import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { FileVersion as FileVersionSchema } from '#shared/contracts/knowledge-upkeep';
import { Dialog, DialogActions, openDialog } from '../components/dialog';
import { now, t, type Localized } from '../i18n/bind';
import { formatBytes, formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';

export type FileVersion = z.output<typeof FileVersionSchema>;

export interface VersionsDialogDeps {
  /** The file's history, newest first (GetFileVersions). */
  load(): Promise<FileVersion[]>;
  /** Makes a version current again (PostFileRestore). */
  restore(version: FileVersion): Promise<void>;
  /** Saves a version's original. */
  download(version: FileVersion): Promise<void>;
  /** Whoever may manage the file may restore; everyone who reads it sees the history. */
  canManage: boolean;
  /** Why a request failed, in words. */
  reason(err: unknown): Localized;
}

/**
 * A file's versions, newest first, the current one marked: each downloadable, an older ready
 * one restorable (not while a new version is on its way: that one would replace the current).
 * Answers whether a version was restored, so that the list is asked again.
 */
export function versionsDialog(fileName: string, deps: VersionsDialogDeps): Promise<boolean> {
  let restored = false;
  return openDialog<boolean>(
    (done) => (
      <VersionsDialog
        fileName={fileName}
        deps={deps}
        onRestored={() => (restored = true)}
        close={() => done(restored)}
      />
    ),
    false,
  ).then((answer) => answer || restored);
}

interface Props {
  fileName: string;
  deps: VersionsDialogDeps;
  onRestored(): void;
  close(): void;
}

function VersionsDialog({ fileName, deps, onRestored, close }: Props) {
  const m = messages();
  const [versions, setVersions] = useState<FileVersion[] | undefined>();
  const [error, setError] = useState<Localized | undefined>();
  const [said, setSaid] = useState<Localized | undefined>();
  const [busy, setBusy] = useState<string | undefined>();

  async function load() {
    try {
      setVersions(await deps.load());
    } catch (err) {
      setError(deps.reason(err));
    }
  }
  useEffect(() => void load(), []);

  async function restore(version: FileVersion) {
    setBusy(version.id);
    setError(undefined);
    try {
      await deps.restore(version);
      onRestored();
      setSaid(t((l) => l.versions.restored(version.version)));
      await load();
    } catch (err) {
      setError(deps.reason(err));
    } finally {
      setBusy(undefined);
    }
  }

  const onItsWay = versions?.some((v) => v.status === 'queued' || v.status === 'processing');
  return (
    <Dialog title={m.versions.title(fileName)}>
      <p>{m.versions.intro}</p>
      {!versions && !error && <p>{m.versions.loading}</p>}
      {versions && (
        <ol class="version-list">
          {versions.map((v) => (
            <li key={v.id} class="version" data-current={v.current || undefined}>
              <div class="version-main">
                <strong>{m.versions.version(v.version)}</strong>{' '}
                {v.current && (
                  <span class="badge" title={m.versions.currentTitle}>
                    {m.versions.current}
                  </span>
                )}
                {v.status !== 'ready' && v.status !== 'UNKNOWN' && (
                  <span class={v.status === 'failed' ? 'badge off' : 'badge'}>
                    {m.versions.status(v.status)}
                  </span>
                )}
                <br />
                <span class="version-meta">
                  {`${v.name} · ${formatBytes(v.size)} · ${v.uploader.username} · `}
                  <time datetime={v.created_at}>{formatDate(v.created_at)}</time>
                  {v.superseded_at && ` · ${m.versions.replacedAt(formatDate(v.superseded_at))}`}
                </span>
              </div>
              <div class="version-actions">
                <button
                  type="button"
                  class="button small"
                  aria-label={m.versions.downloadNamed(v.version)}
                  onClick={() => void deps.download(v).catch((err) => setError(deps.reason(err)))}
                >
                  {m.versions.download}
                </button>
                {deps.canManage && !v.current && v.status === 'ready' && !onItsWay && (
                  <button
                    type="button"
                    class="button small"
                    aria-label={m.versions.restoreNamed(v.version)}
                    disabled={busy !== undefined}
                    onClick={() => void restore(v)}
                  >
                    {m.versions.restore}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      <p role="status">{said ? now(said) : ''}</p>
      {error && (
        <p class="error" role="alert">
          {now(error)}
        </p>
      )}
      <DialogActions>
        <button type="button" class="button" autofocus onClick={close}>
          {m.versions.close}
        </button>
      </DialogActions>
    </Dialog>
  );
}
