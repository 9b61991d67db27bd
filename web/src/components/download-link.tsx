import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useApp, type AppContext } from '../context';

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
  return (
    <a
      class={className}
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
    const url = URL.createObjectURL(blob);
    try {
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = filename ?? file.name;
      anchor.hidden = true;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
    } finally {
      // The click has handed the bytes to the browser's download; the URL is not needed after.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    }
  } catch (err) {
    ctx.fail(err);
  }
}
