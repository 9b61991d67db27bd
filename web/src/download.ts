import type { AppContext } from './context';
import { h, type Child, type Props } from './dom';

/**
 * A link to a stored file. Its address carries no token, so hovering, history and proxy logs
 * show nothing secret; a click fetches the file with the token in the Authorization header and
 * saves it under its name (a link could not send the header itself).
 */
export function downloadLink(
  ctx: AppContext,
  file: { id: string; name: string },
  attributes: Props,
  label: Child,
): HTMLAnchorElement {
  const link = h(
    'a',
    {
      ...attributes,
      href: ctx.api.downloadUrl(file.id),
      download: file.name,
      on: {
        click: (event) => {
          event.preventDefault();
          void save(ctx, file, link);
        },
      },
    },
    label,
  );
  return link;
}

async function save(ctx: AppContext, file: { id: string; name: string }, link: HTMLElement) {
  link.setAttribute('aria-busy', 'true');
  try {
    const { blob, filename } = await ctx.api.download(file.id, ctx.signal);
    const url = URL.createObjectURL(blob);
    try {
      const anchor = h('a', { href: url, download: filename ?? file.name, hidden: true });
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
    } finally {
      // The click has handed the bytes to the browser's download; the URL is not needed after.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    }
  } catch (err) {
    ctx.fail(err);
  } finally {
    link.removeAttribute('aria-busy');
  }
}
