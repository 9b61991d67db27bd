/**
 * Test inputs, made on the spot: pages of text drawn with a real CJK font and encoded as JPEG
 * (what a scanner produces), wrapped in PDFs written object by object, and hostile variants of
 * them (huge pages, images that declare billions of pixels, noise).
 */
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc';
const FAMILY = 'KbchatTestSerifCJK';
let fontRegistered = false;

export interface DrawnPage {
  jpeg: Uint8Array;
  /** Image size in pixels. */
  width: number;
  height: number;
}

export interface DrawOptions {
  /** Image size in pixels; A4 at 200 dpi by default. */
  width?: number;
  height?: number;
  fontPx?: number;
  /** Left edge and first baseline, in pixels. */
  left?: number;
  top?: number;
  lineGap?: number;
  quality?: number;
}

/** A white page with `lines` drawn in black in Noto Serif CJK, as a JPEG. */
export async function drawTextJpeg(lines: string[], options: DrawOptions = {}): Promise<DrawnPage> {
  const fontPx = options.fontPx ?? 40;
  const step = fontPx + (options.lineGap ?? fontPx);
  return drawJpeg(
    lines.map((text, index) => ({
      text,
      x: options.left ?? 160,
      y: (options.top ?? 260) + index * step,
    })),
    options,
  );
}

/** A white page with each text drawn with its baseline starting at x, y (pixels), as a JPEG. */
export async function drawJpeg(
  texts: { text: string; x: number; y: number }[],
  options: DrawOptions = {},
): Promise<DrawnPage> {
  if (!fontRegistered) {
    GlobalFonts.registerFromPath(CJK_FONT, FAMILY);
    fontRegistered = true;
  }
  const width = options.width ?? 1654;
  const height = options.height ?? 2339;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#111111';
  context.font = `${options.fontPx ?? 40}px ${FAMILY}`;
  for (const { text, x, y } of texts) context.fillText(text, x, y);
  const jpeg = await canvas.encode('jpeg', options.quality ?? 85);
  return { jpeg: new Uint8Array(jpeg), width, height };
}

/** Seeded noise: `cells` × `cells` random black and white squares, as a JPEG. */
export async function noiseJpeg(size: number, cell: number, seed = 1): Promise<DrawnPage> {
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  context.fillStyle = '#000000';
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let y = 0; y < size; y += cell) {
    for (let x = 0; x < size; x += cell) if (random() < 0.5) context.fillRect(x, y, cell, cell);
  }
  const jpeg = await canvas.encode('jpeg', 90);
  return { jpeg: new Uint8Array(jpeg), width: size, height: size };
}

export interface ImagePage {
  jpeg: Uint8Array;
  /** What the image XObject's dictionary declares (may lie, for hostile tests). */
  width: number;
  height: number;
  /** Page size in points; the image fills the page. A4 by default. */
  pageWidth?: number;
  pageHeight?: number;
  colorSpace?: 'DeviceRGB' | 'DeviceGray';
}

/** One page per image, each image (DCTDecode) drawn over the whole page. */
export function imagePdf(pages: ImagePage[]): Uint8Array {
  const writer = new PdfWriter();
  const pagesRef = writer.reserve();
  const kids = pages.map((page) => {
    const pageWidth = page.pageWidth ?? 595;
    const pageHeight = page.pageHeight ?? 842;
    const image = writer.add(
      `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} ` +
        `/ColorSpace /${page.colorSpace ?? 'DeviceRGB'} /BitsPerComponent 8 ` +
        `/Filter /DCTDecode /Length ${page.jpeg.length} >>`,
      page.jpeg,
    );
    const content = writer.addStream(`q ${pageWidth} 0 0 ${pageHeight} 0 0 cm /Im0 Do Q`);
    return writer.add(
      `<< /Type /Page /Parent ${pagesRef} 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] ` +
        `/Resources << /XObject << /Im0 ${image} 0 R >> >> /Contents ${content} 0 R >>`,
    );
  });
  writer.set(
    pagesRef,
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  );
  return writer.finish(writer.add(`<< /Type /Catalog /Pages ${pagesRef} 0 R >>`));
}

/** One page of `width` × `height` points whose content stream is `content` (no resources). */
export function vectorPdf(
  width: number,
  height: number,
  content: string,
  options: { rotate?: number } = {},
): Uint8Array {
  const writer = new PdfWriter();
  const pagesRef = writer.reserve();
  const stream = writer.addStream(content);
  const rotate = options.rotate ? `/Rotate ${options.rotate} ` : '';
  const page = writer.add(
    `<< /Type /Page /Parent ${pagesRef} 0 R /MediaBox [0 0 ${width} ${height}] ${rotate}` +
      `/Resources << >> /Contents ${stream} 0 R >>`,
  );
  writer.set(pagesRef, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  return writer.finish(writer.add(`<< /Type /Catalog /Pages ${pagesRef} 0 R >>`));
}

/**
 * A copy of a baseline JPEG whose frame header (SOF0) declares `width` × `height` pixels; the
 * scan data stays that of the small image.
 */
export function withDeclaredSize(jpeg: Uint8Array, width: number, height: number): Uint8Array {
  const copy = jpeg.slice();
  let offset = 2;
  while (offset + 4 <= copy.length) {
    if (copy[offset] !== 0xff) throw new Error('withDeclaredSize: not a JPEG marker');
    const marker = copy[offset + 1]!;
    const length = (copy[offset + 2]! << 8) | copy[offset + 3]!;
    if (marker >= 0xc0 && marker <= 0xc2) {
      copy[offset + 5] = height >> 8;
      copy[offset + 6] = height & 0xff;
      copy[offset + 7] = width >> 8;
      copy[offset + 8] = width & 0xff;
      return copy;
    }
    offset += 2 + length;
  }
  throw new Error('withDeclaredSize: no frame header');
}

/**
 * Character-level similarity of two strings, 1 − Levenshtein distance / length of the longer,
 * whitespace ignored.
 */
export function similarity(a: string, b: string): number {
  const x = [...a.replace(/\s+/g, '')];
  const y = [...b.replace(/\s+/g, '')];
  if (x.length === 0 && y.length === 0) return 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return 1 - previous[y.length]! / Math.max(x.length, y.length);
}

/** Numbered objects and a cross-reference table with exact byte offsets; binary streams. */
class PdfWriter {
  readonly #objects: (Uint8Array | undefined)[] = [];

  reserve(): number {
    this.#objects.push(undefined);
    return this.#objects.length;
  }

  set(number: number, dictionary: string, stream?: Uint8Array): void {
    const head = latin1(`${number} 0 obj\n${dictionary}\n`);
    const parts = stream
      ? [head, latin1('stream\n'), stream, latin1('\nendstream\nendobj\n')]
      : [head, latin1('endobj\n')];
    this.#objects[number - 1] = concat(parts);
  }

  add(dictionary: string, stream?: Uint8Array): number {
    const number = this.reserve();
    this.set(number, dictionary, stream);
    return number;
  }

  addStream(content: string): number {
    return this.add(`<< /Length ${content.length} >>`, latin1(content));
  }

  finish(root: number): Uint8Array {
    const parts: Uint8Array[] = [latin1('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n')];
    let offset = parts[0]!.length;
    const offsets = this.#objects.map((object, index) => {
      if (!object) throw new Error(`PdfWriter: object ${index + 1} never written`);
      const at = offset;
      parts.push(object);
      offset += object.length;
      return at;
    });
    let tail = `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`;
    for (const at of offsets) tail += `${String(at).padStart(10, '0')} 00000 n \n`;
    tail += `trailer\n<< /Size ${offsets.length + 1} /Root ${root} 0 R >>\n`;
    tail += `startxref\n${offset}\n%%EOF\n`;
    parts.push(latin1(tail));
    return concat(parts);
  }
}

function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
