import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useApp, type AppContext } from '../context';
import { useActionLook } from './menu-button';
import { saveFile } from './save-file';

export interface DownloadLinkProps {
  file: { id: string; name: string };
  class?: string;
  /** A name that says which file ("Download a.pdf") when the words shown do not. */
  label?: string;
  children: ComponentChildren;
}

/**
 * A link to a stored file. Its address carries no token, so hovering, history and proxy logs
 * show nothing secret; a click fetches the file with the token in the Authorization header and
 * saves it under its name (a link could not send the header itself).
 */
export function DownloadLink({ file, class: className, label, children }: DownloadLinkProps) {
  const ctx = useApp();
  const [busy, setBusy] = useState(false);
  // In a menu (a file row's More) it is one of the menu's items.
  const look = useActionLook(className ?? '');
  return (
    <a
      {...look}
      class={look.class || undefined}
      href={ctx.api.downloadUrl(file.id)}
      download={file.name}
      aria-label={label}
      aria-busy={busy || undefined}
      onClick={(event) => {
        event.preventDefault();
        setBusy(true);
        void save(ctx, file).finally(() => setBusy(false));
      }}
    >
      {children}
    </a>
  );
}

async function save(ctx: AppContext, file: { id: string; name: string }): Promise<void> {
  try {
    const { blob, filename } = await ctx.api.download(file.id, ctx.signal);
    saveFile(blob, filename ?? file.name);
  } catch (err) {
    ctx.fail(err);
  }
}
