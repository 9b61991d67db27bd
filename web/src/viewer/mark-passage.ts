/**
 * The cited passage, marked on a rendered PDF page. The knowledge service stores where each
 * line of a page's text stands and answers a passage's lines as rectangles in PDF points
 * (`GET /moduleknowledge/chunk`); here they meet the page as drawn:
 * - a page with a text layer (PDF.js draws it as transparent spans over the canvas): the
 *   characters of each span that fall inside a rectangle are wrapped in `<mark>`, so the
 *   passage is selectable, found by the browser's search and read by screen readers as marked;
 * - a scanned page (its text came from OCR, the PDF has no text to draw): `<mark>` boxes over
 *   the image where OCR found the passage's lines.
 */

/** [left, top, right, bottom], in the units of whatever they are compared with. */
export type Box = readonly [number, number, number, number];

/** The rectangles scaled from PDF points to the page as drawn (CSS pixels). */
export const scaleBoxes = (boxes: readonly Box[], scale: number): Box[] =>
  boxes.map(([l, t, r, b]) => [l * scale, t * scale, r * scale, b * scale]);

/**
 * Which characters of a run of `length` characters drawn evenly across `run` fall inside one
 * of `boxes`: `[from, to)`, or undefined. A run belongs to a box when its vertical middle lies
 * inside it; a character is inside when its middle is. Even spacing is exact for CJK text and
 * close for Latin text.
 */
export function coveredRange(
  run: Box,
  length: number,
  boxes: readonly Box[],
): [number, number] | undefined {
  if (length === 0) return undefined;
  const middle = (run[1] + run[3]) / 2;
  const width = (run[2] - run[0]) / length;
  let from = Infinity;
  let to = -Infinity;
  for (const [left, top, right, bottom] of boxes) {
    if (middle < top || middle > bottom) continue;
    for (let i = 0; i < length; i += 1) {
      const centre = run[0] + (i + 0.5) * width;
      if (centre >= left && centre <= right) {
        from = Math.min(from, i);
        to = Math.max(to, i + 1);
      }
    }
  }
  return from < to ? [from, to] : undefined;
}

/**
 * Wraps the passage's characters in the text layer's spans in `<mark>`; the marks made, in
 * reading order. `boxes` are relative to the layer's top-left corner, in CSS pixels.
 */
export function markTextLayer(layer: HTMLElement, boxes: readonly Box[]): HTMLElement[] {
  const origin = layer.getBoundingClientRect();
  const marks: HTMLElement[] = [];
  for (const span of layer.querySelectorAll<HTMLElement>('span')) {
    const text = span.firstChild;
    if (span.childNodes.length !== 1 || !(text instanceof Text)) continue;
    const drawn = span.getBoundingClientRect();
    const run: Box = [
      drawn.left - origin.left,
      drawn.top - origin.top,
      drawn.right - origin.left,
      drawn.bottom - origin.top,
    ];
    // Characters, not UTF-16 units: a character outside the BMP is one.
    const chars = [...text.data];
    const range = coveredRange(run, chars.length, boxes);
    if (!range) continue;
    const [from, to] = range;
    const mark = document.createElement('mark');
    mark.className = 'passage';
    mark.textContent = chars.slice(from, to).join('');
    text.replaceWith(chars.slice(0, from).join(''), mark, chars.slice(to).join(''));
    marks.push(mark);
  }
  return marks;
}

/** `<mark>` boxes over a page at the passage's rectangles (CSS pixels); the marks made. */
export function overlayMarks(layer: HTMLElement, boxes: readonly Box[]): HTMLElement[] {
  return boxes.map(([left, top, right, bottom]) => {
    const mark = document.createElement('mark');
    mark.className = 'passage-box';
    mark.style.left = `${left}px`;
    mark.style.top = `${top}px`;
    mark.style.width = `${Math.max(0, right - left)}px`;
    mark.style.height = `${Math.max(0, bottom - top)}px`;
    layer.append(mark);
    return mark;
  });
}
