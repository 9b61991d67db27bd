import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { messages } from '../i18n/messages';
import { markTextLayer, overlayMarks, scaleBoxes, type Box } from './mark-passage';
import { textLayerClass } from './pdf-engine';

export interface PdfPageProps {
  doc: PDFDocumentProxy;
  /** 1-based. */
  number: number;
  /** The passage's lines on this page, in PDF points; empty when no passage is shown here. */
  rects: readonly Box[];
  /** The page's text came from OCR: the passage is boxed over the image. */
  scanned: boolean;
  /** Once the page is drawn: the marks made (the first is scrolled into view). */
  onShown(marks: HTMLElement[]): void;
  onFailed(err: unknown): void;
}

/**
 * One PDF page as PDF.js draws it: the canvas at the width the viewer has (sharp on
 * high-density screens), its text layer over it (selectable, searchable, read by screen
 * readers) and the cited passage marked in it, or boxed over a scanned page.
 */
export function PdfPage({ doc, number, rects, scanned, onShown, onFailed }: PdfPageProps) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const boxes = useRef<HTMLDivElement>(null);
  const hooks = useRef({ onShown, onFailed });
  hooks.current = { onShown, onFailed };

  useLayoutEffect(() => {
    let cancelled = false;
    let cancel = () => {};
    const draw = async () => {
      const page = await doc.getPage(number);
      const TextLayer = await textLayerClass();
      if (cancelled) return;
      const width = frame.current!.clientWidth || 800;
      const scale = width / page.getViewport({ scale: 1 }).width;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const target = canvas.current!;
      target.width = Math.floor(viewport.width * ratio);
      target.height = Math.floor(viewport.height * ratio);
      frame.current!.style.setProperty('--total-scale-factor', String(scale));
      frame.current!.style.height = `${viewport.height}px`;
      const rendering = page.render({
        canvas: target,
        viewport,
        ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}),
      });
      const text = new TextLayer({
        textContentSource: page.streamTextContent(),
        container: layer.current!,
        viewport,
      });
      cancel = () => {
        rendering.cancel();
        text.cancel();
      };
      layer.current!.replaceChildren();
      boxes.current!.replaceChildren();
      await Promise.all([rendering.promise, text.render()]);
      if (cancelled) return;
      const drawn = scaleBoxes(rects, scale);
      let marks = scanned ? [] : markTextLayer(layer.current!, drawn);
      // A scan has no text to mark; a text layer that does not line up (rare) gets boxes too.
      if (marks.length === 0) marks = overlayMarks(boxes.current!, drawn);
      hooks.current.onShown(marks);
    };
    draw().catch((err: unknown) => {
      if (!cancelled) hooks.current.onFailed(err);
    });
    return () => {
      cancelled = true;
      cancel();
    };
  }, [doc, number, rects, scanned]);

  return (
    <div class="pdf-page" ref={frame}>
      <canvas ref={canvas} role="img" aria-label={messages().viewer.pageImage(number)} />
      <div class="textLayer" ref={layer} />
      <div class="passage-boxes" ref={boxes} aria-hidden="true" />
    </div>
  );
}
