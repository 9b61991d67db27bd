import { useRef, useState } from 'preact/hooks';
import type { KnowledgeFile } from '../api/services';
import { useActionLook } from '../components/menu-button';
import { saveFile } from '../components/save-file';
import type { AppContext } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import type { KnowledgeStore } from '../knowledge-store';
import { versionsDialog } from './versions-dialog';

type Working = (on: boolean) => void;

export interface VersionActionsDeps {
  ctx: AppContext;
  store: KnowledgeStore;
  say(text: Localized): void;
  complain(text: Localized | undefined): void;
  /** Whether the caller may manage this file (upload a new version, restore). */
  canManage(file: KnowledgeFile): boolean;
}

/**
 * A file row's version actions: a new version uploaded with `replaces` (the old one stays
 * searched until it is ready; the store follows the new one's progress), and the history.
 */
export function versionActions({ ctx, store, say, complain, canManage }: VersionActionsDeps) {
  const refusal = (err: unknown): Localized => {
    const failure = ctx.fail(err);
    return failure.status === 403
      ? t((m) => m.versions.onlyManagerMay)
      : t((m) => failureText(failure, m));
  };
  return {
    async uploadVersion(file: KnowledgeFile, picked: File, working: Working) {
      complain(undefined);
      working(true);
      try {
        const result = await ctx.api.knowledge.Upload(
          { file: picked, replaces: file.id },
          // As uploads: answered once stored (respond-async), the progress followed after.
          { signal: ctx.signal, headers: { Prefer: 'respond-async' } },
        );
        say(
          t((m) =>
            result.duplicate ? m.versions.sameAsCurrent(file.name) : m.versions.uploaded(file.name),
          ),
        );
        // The new version is listed beside the old one, its progress followed like any upload's.
        await store.refresh();
      } catch (err) {
        const failure = ctx.fail(err);
        if (failure.status === 401) return;
        const reason = (m: Messages) =>
          failure.status === 403 ? m.versions.onlyManagerMay : failureText(failure, m);
        complain(t((m) => m.versions.notUploaded(file.name, reason(m))));
      }
    },

    async showVersions(file: KnowledgeFile, working: Working) {
      complain(undefined);
      const options = { signal: ctx.signal };
      const restored = await versionsDialog(file.name, {
        load: () => ctx.api.knowledge.GetFileVersions({ id: file.id }, options),
        async restore(version) {
          await ctx.api.knowledge.PostFileRestore({ body: { id: version.id } }, options);
          say(t((m) => m.versions.restored(version.version)));
        },
        async download(version) {
          const { blob, filename } = await ctx.api.download(version.id, ctx.signal);
          saveFile(blob, filename ?? version.name);
        },
        canManage: canManage(file),
        reason: refusal,
      });
      if (!restored) return;
      working(true);
      await store.refresh();
    },
  };
}

export type VersionActions = ReturnType<typeof versionActions>;

/**
 * "Upload new version": a button that opens the file chooser; the file chosen is uploaded as
 * the row's file's new version.
 */
export function UploadVersionButton({
  file,
  upload,
}: {
  file: KnowledgeFile;
  upload(picked: File, working: Working): Promise<void>;
}) {
  const m = messages();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const look = useActionLook('button small');
  return (
    <>
      <button
        type="button"
        {...look}
        aria-label={m.versions.uploadNamed(file.name)}
        title={m.versions.uploadTitle}
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        {m.versions.upload}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const picked = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (!picked) return;
          void upload(picked, setBusy).finally(() => setBusy(false));
        }}
      />
    </>
  );
}

/** On a new version's row while it is on its way: which file it replaces once it is ready. */
export function NewVersionNote({ file }: { file: KnowledgeFile }) {
  if (!file.replaces || file.status === 'ready') return null;
  return <p class="file-note version-note">{messages().versions.onItsWay(file.replaces.name)}</p>;
}
