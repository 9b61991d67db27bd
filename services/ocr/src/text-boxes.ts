/**
 * PaddleOCR's DB post-processing, from the detection model's text probability map to the boxes
 * of the page's lines: the map above 0.3 split into connected regions; each region's
 * minimum-area rectangle, kept when its mean probability is at least 0.6 and it is at least 3 px
 * thick, grown by area × 1.5 / perimeter on every side (and a little more at the ends of the
 * line, see LINE_END_PAD). Geometry only: no model runs here (recognise.ts runs them).
 */
import { PageTooComplexError } from './errors.ts';
import type { PageImage } from './render-page.ts';

// PaddleOCR's defaults for DB post-processing.
const BINARY_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.6;
const UNCLIP_RATIO = 1.5;
/**
 * Then each box grows along its text by this share of its thickness at both ends: PaddleOCR's
 * box alone leaves small punctuation at a line's end (，。) outside. Measured on 32 drawn lines
 * ending in punctuation at 20-40 px: 23 kept it without, 32 with (0.5 did no better).
 */
const LINE_END_PAD = 0.3;
const MIN_SIDE = 3;

export interface ProbabilityMap {
  data: Float32Array;
  width: number;
  height: number;
  /** Image pixels per map pixel. */
  scaleX: number;
  scaleY: number;
  dispose(): void;
}

export type Point = [number, number];

/** A rotated rectangle in image pixels: corners top-left, top-right, bottom-right, bottom-left. */
export interface TextBox {
  corners: [Point, Point, Point, Point];
}

/**
 * PaddleOCR's DB post-processing on the probability map; throws PageTooComplexError when more
 * than `maxLines` boxes are found.
 */
export function findTextBoxes(map: ProbabilityMap, image: PageImage, maxLines: number): TextBox[] {
  const { data, width, height } = map;
  const size = width * height;
  // 0 = background, 1 = text not yet visited, 2 = visited.
  const state = new Uint8Array(size);
  for (let i = 0; i < size; i++) if (data[i]! > BINARY_THRESHOLD) state[i] = 1;
  const stack = new Int32Array(size);
  // Per region, the leftmost and rightmost pixel of each row it covers; `rowRegion` says which
  // region last wrote a row.
  const rowMin = new Int32Array(height);
  const rowMax = new Int32Array(height);
  const rowRegion = new Int32Array(height).fill(-1);
  const boxes: TextBox[] = [];
  for (let start = 0; start < size; start++) {
    if (state[start] !== 1) continue;
    state[start] = 2;
    let top = 0;
    stack[top++] = start;
    let minY = height;
    let maxY = -1;
    let sum = 0;
    let count = 0;
    while (top > 0) {
      const index = stack[--top]!;
      const x = index % width;
      const y = (index - x) / width;
      sum += data[index]!;
      count++;
      if (rowRegion[y] !== start) {
        rowRegion[y] = start;
        rowMin[y] = x;
        rowMax[y] = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      if (x < rowMin[y]!) rowMin[y] = x;
      if (x > rowMax[y]!) rowMax[y] = x;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const neighbour = ny * width + nx;
          if (state[neighbour] === 1) {
            state[neighbour] = 2;
            stack[top++] = neighbour;
          }
        }
      }
    }
    if (sum / count < BOX_THRESHOLD) continue;
    const points: Point[] = [];
    for (let r = minY; r <= maxY; r++) {
      if (rowRegion[r] !== start) continue;
      points.push([rowMin[r]!, r], [rowMax[r]!, r]);
    }
    const rect = minAreaRect(convexHull(points));
    if (Math.min(rect.width, rect.height) < MIN_SIDE) continue;
    const grow = (rect.width * rect.height * UNCLIP_RATIO) / (2 * (rect.width + rect.height));
    const grown = { ...rect, width: rect.width + 2 * grow, height: rect.height + 2 * grow };
    if (grown.width >= grown.height) grown.width += 2 * LINE_END_PAD * grown.height;
    else grown.height += 2 * LINE_END_PAD * grown.width;
    if (Math.min(grown.width, grown.height) < MIN_SIDE + 2) continue;
    const corners = rectCorners(grown, map.scaleX, map.scaleY, image.width, image.height);
    if (distance(corners[0], corners[1]) <= 3 || distance(corners[0], corners[3]) <= 3) continue;
    boxes.push({ corners });
    if (boxes.length > maxLines) {
      throw new PageTooComplexError(
        `The page has more than ${maxLines} text lines; it looks like noise, not text.`,
      );
    }
  }
  return boxes;
}

/** Andrew's monotone chain; points are [x, y]. */
function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length <= 2) return sorted;
  const cross = (o: Point, a: Point, b: Point) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower.at(-2)!, lower.at(-1)!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (const p of sorted.reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2)!, upper.at(-1)!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

interface Rect {
  cx: number;
  cy: number;
  /** Along `ux, uy`, the rectangle's axis nearest to horizontal, pointing right. */
  width: number;
  height: number;
  ux: number;
  uy: number;
}

/** The minimum-area rectangle around a convex polygon (one side on a hull edge). */
function minAreaRect(hull: Point[]): Rect {
  let best: Rect = { cx: hull[0]![0], cy: hull[0]![1], width: 0, height: 0, ux: 1, uy: 0 };
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length === 0) continue;
    const ux = (b[0] - a[0]) / length;
    const uy = (b[1] - a[1]) / length;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of hull) {
      const u = p[0] * ux + p[1] * uy;
      const v = -p[0] * uy + p[1] * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = {
        cx: cu * ux - cv * uy,
        cy: cu * uy + cv * ux,
        width: maxU - minU,
        height: maxV - minV,
        ux,
        uy,
      };
    }
  }
  return normaliseAxes(best);
}

/** Makes `u` the axis nearest to horizontal, pointing right (swapping width and height). */
function normaliseAxes(rect: Rect): Rect {
  let { ux, uy, width, height } = rect;
  if (Math.abs(uy) > Math.abs(ux)) {
    [ux, uy] = [-uy, ux];
    [width, height] = [height, width];
  }
  if (ux < 0) {
    ux = -ux;
    uy = -uy;
  }
  return { ...rect, ux, uy, width, height };
}

/**
 * Corners top-left, top-right, bottom-right, bottom-left, scaled from map pixels to image
 * pixels and clipped to the image.
 */
function rectCorners(
  rect: Rect,
  scaleX: number,
  scaleY: number,
  imageWidth: number,
  imageHeight: number,
): TextBox['corners'] {
  const { cx, cy, ux, uy } = rect;
  const hw = rect.width / 2;
  const hh = rect.height / 2;
  // v = (−uy, ux) points down when u points right (y grows downwards).
  const vx = -uy;
  const vy = ux;
  const corner = (su: number, sv: number): Point => [
    clamp((cx + su * hw * ux + sv * hh * vx + 0.5) * scaleX - 0.5, 0, imageWidth),
    clamp((cy + su * hw * uy + sv * hh * vy + 0.5) * scaleY - 0.5, 0, imageHeight),
  ];
  return [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}
