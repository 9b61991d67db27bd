import JSZip from 'jszip';
import mammoth from 'mammoth';
import { htmlSections, type Section } from './sections';

/**
 * A Word document's text as sections: mammoth (a kept DOCX-to-HTML converter) turns its
 * paragraphs, Heading 1–3 styles, lists and tables into HTML, which htmlSections reads.
 *
 * A DOCX is a ZIP, and a ZIP can inflate a few kilobytes into gigabytes. JSZip inflates a
 * whole entry before it checks the size the archive declared, so nothing is handed to it
 * compressed: each part mammoth reads is inflated here first, counted as it streams, and the
 * whole document stops at `maxInflatedBytes`. Images are never inflated (text is all that is
 * used), and mammoth is told not to read them.
 */
export class DocxError extends Error {
  readonly reason: 'corrupt' | 'too_complex' | 'no_text';
  constructor(reason: DocxError['reason'], options: { cause?: unknown } = {}) {
    super(`docx: ${reason}`, options);
    this.name = 'DocxError';
    this.reason = reason;
  }
}

export const DEFAULT_DOCX_INFLATE_BUDGET = 32 * 1024 * 1024;

/** The parts mammoth reads: the document, its styles, numbering, relationships… all XML. */
const TEXT_PART = /\.(xml|rels)$/i;

export async function docxSections(
  bytes: Uint8Array,
  maxInflatedBytes = DEFAULT_DOCX_INFLATE_BUDGET,
): Promise<Section[]> {
  let archive: JSZip;
  try {
    archive = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch (err) {
    throw new DocxError('corrupt', { cause: err });
  }
  if (!archive.file('word/document.xml')) throw new DocxError('corrupt');
  const safe = new JSZip();
  let inflated = 0;
  for (const entry of Object.values(archive.files)) {
    if (entry.dir || !TEXT_PART.test(entry.name)) continue;
    const data = await inflate(entry, maxInflatedBytes - inflated);
    inflated += data.byteLength;
    safe.file(entry.name, data, { compression: 'STORE' });
  }
  const repacked = await safe.generateAsync({ type: 'uint8array', compression: 'STORE' });
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      // The browser build reads `arrayBuffer`, the Node build `buffer`: both are given.
      { arrayBuffer: repacked.buffer as ArrayBuffer, buffer: repacked } as never,
      { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    );
    html = result.value;
  } catch (err) {
    throw new DocxError('corrupt', { cause: err });
  }
  const sections = htmlSections(`<body>${html}</body>`);
  if (sections.length === 0) throw new DocxError('no_text');
  return sections;
}

/**
 * JSZip's documented `internalStream` (api_zipobject/internal_stream), missing from its types:
 * the entry's content as a stream of chunks, inflated as it is read.
 */
interface StreamHelper {
  on(event: 'data', listener: (chunk: Uint8Array) => void): StreamHelper;
  on(event: 'error', listener: (err: Error) => void): StreamHelper;
  on(event: 'end', listener: () => void): StreamHelper;
  pause(): StreamHelper;
  resume(): StreamHelper;
}

/** One part, inflated as a stream and stopped as soon as it is over what is left of the budget. */
function inflate(entry: JSZip.JSZipObject, budget: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const streamable = entry as JSZip.JSZipObject & {
      internalStream(type: 'uint8array'): StreamHelper;
    };
    const stream = streamable.internalStream('uint8array');
    stream
      .on('data', (chunk) => {
        size += chunk.byteLength;
        if (size > budget) {
          stream.pause();
          reject(new DocxError('too_complex'));
          return;
        }
        chunks.push(chunk);
      })
      .on('error', (err) => reject(new DocxError('corrupt', { cause: err })))
      .on('end', () => {
        const data = new Uint8Array(size);
        let offset = 0;
        for (const chunk of chunks) {
          data.set(chunk, offset);
          offset += chunk.byteLength;
        }
        resolve(data);
      })
      .resume();
  });
}
