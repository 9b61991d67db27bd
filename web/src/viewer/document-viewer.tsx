import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ChunkLocation, FilePage } from '../api/services';
import { failureOf } from '../api/services';
import { DownloadLink } from '../components/download-link';
import { useUniqueId } from '../components/unique-id';
import { isAbort, useApp } from '../context';
import { messages } from '../i18n/messages';
import { chunksLink, documentLink, type DocumentRoute } from '../main/route';
import { DocumentHead, useViewedFile } from './document-head';
import type { Box } from './mark-passage';
import { openPdf, type OpenPdf } from './pdf-engine';
import { PdfPage } from './pdf-page';
import { findPassage, TextPage } from './text-page';

export interface DocumentViewerProps {
  route: DocumentRoute;
  /** The viewer was closed (Escape, the close button). */
  onClose(): void;
}

type Shown =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'failed' }
  | { status: 'shown'; page: FilePage; chunk?: ChunkLocation };

/**
 * A file at one page inside the app, the cited passage highlighted and scrolled into view: a
 * modal dialog over the chat (focus stays inside; Escape or Close returns to the citation).
 * PDFs are drawn by PDF.js from the stored original, fetched by range requests; other formats
 * show the section's text as the service read it. A file the user may not read, or that does
 * not exist, shows not found.
 */
export function DocumentViewer({ route, onClose }: DocumentViewerProps) {
  const ctx = useApp();
  const m = messages();
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useUniqueId('viewer-title');
  // A link that names no file shows not found at once: there is nothing to ask the service.
  const [shown, setShown] = useState<Shown>({ status: route.malformed ? 'missing' : 'loading' });
  const [pdf, setPdf] = useState<PDFDocumentProxy | undefined>();
  const [drawn, setDrawn] = useState(false);
  const pdfLoad = useRef<Promise<OpenPdf> | undefined>(undefined);
  // Its 文号, title and validity: the viewer is keyed by the file, so asked once per file.
  const viewed = useViewedFile(route.id);

  useLayoutEffect(() => {
    dialog.current?.showModal();
    heading.current?.focus();
  }, []);
  useEffect(
    () => () => {
      void pdfLoad.current?.then((open) => open.close()).catch(() => undefined);
    },
    [],
  );

  // The passage (when one is named) and the page to show.
  useEffect(() => {
    if (route.malformed) return;
    const abort = new AbortController();
    const { signal } = abort;
    setDrawn(false);
    (async () => {
      const chunk =
        route.chunk === undefined
          ? undefined
          : await ctx.api.knowledge
              .GetChunk({ id: route.chunk }, { signal })
              .then((found) => (found.file_id === route.id ? found : undefined))
              // A passage gone (its file re-indexed) still opens the file at its page.
              .catch((err: unknown) => {
                if (failureOf(err)?.status === 404) return undefined;
                throw err;
              });
      const at = route.at ?? chunk?.page ?? 1;
      const page = await ctx.api.knowledge.GetPage({ file_id: route.id, page: at }, { signal });
      if (page.format === 'pdf') {
        pdfLoad.current ??= openPdf(ctx.api.originalSource(route.id));
        const { doc } = await pdfLoad.current;
        if (!signal.aborted) setPdf(doc);
      }
      if (!signal.aborted) setShown({ status: 'shown', page, chunk });
    })().catch((err: unknown) => {
      if (signal.aborted || isAbort(err)) return;
      const failure = failureOf(err);
      // Gone, not the reader's, or a link whose file or page the service cannot take (400: an
      // id that only looks like one): no document to show, and none to download.
      if (failure?.status === 404 || failure?.status === 400)
        return setShown({ status: 'missing' });
      if (failure) ctx.fail(err);
      setShown({ status: 'failed' });
    });
    return () => abort.abort();
  }, [route.id, route.at, route.chunk]);

  const go = (page: number) =>
    // The viewer's pages replace one another in the history: Back closes the viewer.
    location.replace(documentLink(route.id, page, route.chunk));

  const shownMarks = (marks: HTMLElement[]) => {
    setDrawn(true);
    marks[0]?.scrollIntoView({ block: 'center' });
    // Read by the viewer benchmark and visible in the browser's performance tools.
    performance.mark('kbchat:passage-shown', { detail: { marks: marks.length } });
  };

  const page = shown.status === 'shown' ? shown.page : undefined;
  const chunk = shown.status === 'shown' ? shown.chunk : undefined;
  const here = chunk !== undefined && page !== undefined && chunk.page === page.page;
  const paged = page?.format === 'pdf';
  // One array per passage shown: the page is drawn again only when it changes.
  const boxes = useMemo(
    () => (here ? chunk.rects.map(([l = 0, t = 0, r = 0, b = 0]): Box => [l, t, r, b]) : NO_BOXES),
    [here, chunk],
  );

  return (
    <dialog
      ref={dialog}
      class="viewer"
      aria-labelledby={titleId}
      aria-busy={shown.status === 'loading' || (shown.status === 'shown' && !drawn)}
      onClose={onClose}
    >
      <header class="viewer-bar">
        <h2 id={titleId} ref={heading} tabIndex={-1}>
          {page?.file_name ?? m.viewer.title}
        </h2>
        {page && (
          <nav
            class="viewer-pages"
            aria-label={
              paged
                ? m.viewer.pageOf(page.page, page.pages)
                : m.viewer.sectionOf(page.page, page.pages)
            }
          >
            <button
              type="button"
              class="button small"
              disabled={page.page <= 1}
              onClick={() => go(page.page - 1)}
            >
              {m.viewer.previousPage}
            </button>
            <span aria-live="polite">
              {paged
                ? m.viewer.pageOf(page.page, page.pages)
                : m.viewer.sectionOf(page.page, page.pages)}
            </span>
            <button
              type="button"
              class="button small"
              disabled={page.page >= page.pages}
              onClick={() => go(page.page + 1)}
            >
              {m.viewer.nextPage}
            </button>
          </nav>
        )}
        <div class="viewer-actions">
          {/* The file's chunks: what search sees of it (read, and corrected by its keepers). */}
          {page && (
            <a class="button small" href={chunksLink(page.file_id)}>
              {m.chunks.title}
            </a>
          )}
          {page && (
            <DownloadLink file={{ id: page.file_id, name: page.file_name }}>
              {m.viewer.download}
            </DownloadLink>
          )}
          <button
            type="button"
            class="button small viewer-close"
            onClick={() => dialog.current?.close()}
          >
            {m.viewer.close}
          </button>
        </div>
      </header>
      <DocumentHead {...viewed} />
      {/* Scrolls: the keyboard scrolls it too (arrows, Page Down) once it has the focus. */}
      <div class="viewer-body" tabIndex={0} role="region" aria-labelledby={titleId}>
        {shown.status === 'loading' && <p class="viewer-status">{m.viewer.loading}</p>}
        {shown.status === 'missing' && (
          <p class="viewer-status" role="alert">
            {m.viewer.notFound}
          </p>
        )}
        {shown.status === 'failed' && (
          <p class="viewer-status" role="alert">
            {m.viewer.failed}
          </p>
        )}
        {/* On a drawn page the passage is also told as text (for screen readers, and to read
            it where the canvas is small); a section's text is its own telling. */}
        {page && chunk && (paged || !here) && (
          <Passage chunk={chunk} page={page} here={here} onGo={() => go(chunk.page)} />
        )}
        {/* Boxes only where a passage was cited: a page given whole (a chat about chosen
            files) has none to draw, and the note does not claim them. */}
        {page && page.text_source === 'ocr' && (
          <p class="viewer-note">
            {boxes.length > 0 ? m.viewer.ocrPage : m.viewer.ocrPageUnmarked}
          </p>
        )}
        {page && paged && pdf && (
          <PdfPage
            key={page.page}
            doc={pdf}
            number={page.page}
            rects={boxes}
            scanned={page.text_source === 'ocr'}
            onShown={shownMarks}
            onFailed={() => setShown({ status: 'failed' })}
          />
        )}
        {page && !paged && (
          <TextPage
            key={page.page}
            text={page.text}
            passage={here ? placeOf(chunk, page) : undefined}
            onShown={shownMarks}
          />
        )}
      </div>
    </dialog>
  );
}

const NO_BOXES: readonly Box[] = [];

function placeOf(chunk: ChunkLocation, page: FilePage) {
  if (chunk.start !== null && chunk.end !== null) return { start: chunk.start, end: chunk.end };
  return findPassage(page.text, chunk.text);
}

/** The cited passage as text (what a screen reader reads), and where it is. */
function Passage({
  chunk,
  page,
  here,
  onGo,
}: {
  chunk: ChunkLocation;
  page: FilePage;
  here: boolean;
  onGo(): void;
}) {
  const m = messages();
  const id = useUniqueId('viewer-passage');
  const placed = chunk.rects.length > 0 || chunk.start !== null;
  return (
    <section class="viewer-passage" aria-labelledby={id}>
      <h3 id={id}>{m.viewer.passage}</h3>
      {chunk.heading_path && <p class="viewer-heading-path">{chunk.heading_path}</p>}
      {/* A long passage scrolls inside its box, by keyboard too. */}
      <blockquote tabIndex={0}>{chunk.text}</blockquote>
      {here ? (
        <p>{placed || page.format !== 'pdf' ? m.viewer.passageHere : m.viewer.passageUnplaced}</p>
      ) : (
        <p>
          {m.viewer.passageElsewhere(chunk.page)}{' '}
          <button type="button" class="link-button" onClick={onGo}>
            {m.viewer.showPassage}
          </button>
        </p>
      )}
    </section>
  );
}
