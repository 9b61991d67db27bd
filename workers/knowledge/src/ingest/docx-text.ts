import JSZip from 'jszip';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { DocxBodyReader } from './docx-body';
import { DocxStylesReader, type HeadingLevels } from './docx-styles';
import {
  DOCUMENT_WORK_BUDGETS,
  DocumentTooComplex,
  DocumentWorkMeter,
  type DocumentWorkBudget,
} from './document-work-budget';
import { SectionWriter, type Section } from './section-writer';

/**
 * A Word document's text as sections: its paragraphs and notes, one block each, and its tables
 * as Markdown tables, with the Heading 1–3 styles (and outline levels 1–3) starting sections.
 *
 * The document is read as a stream, one XML element at a time (saxes, a strict and
 * namespace-aware XML parser), never as a tree: only its text is kept, so memory follows the
 * text, not the markup. A converter that builds the whole document first (mammoth did here)
 * needed over 1.5 KB of heap per element: a 130,000-element document (about 150 pages of
 * formatted text) did not fit in a 128 MB isolate, and an 84 KB file of 850,000 empty-looking
 * paragraphs took 1.4 GB. Every element, block and character is charged to the document's work
 * meter, and the parts are inflated against a budget as they stream (a ZIP can inflate a few
 * kilobytes into gigabytes; JSZip would inflate a whole entry before checking its size).
 */
export class DocxError extends Error {
  readonly reason: 'corrupt' | 'no_text';
  constructor(reason: DocxError['reason'], options: { cause?: unknown } = {}) {
    super(`docx: ${reason}`, options);
    this.name = 'DocxError';
    this.reason = reason;
  }
}

export interface DocxBudget {
  /** Bytes the parts read may inflate to, all together. */
  maxInflatedBytes: number;
  work: DocumentWorkBudget;
}

export const DEFAULT_DOCX_BUDGET: DocxBudget = {
  maxInflatedBytes: 32 * 1024 * 1024,
  work: DOCUMENT_WORK_BUDGETS.docx,
};

const MAIN = 'word/document.xml';
/** Notes follow the body, as a reader meets them at the end of a printed document. */
const NOTES = ['word/footnotes.xml', 'word/endnotes.xml'];

export async function docxSections(
  bytes: Uint8Array,
  budget: DocxBudget = DEFAULT_DOCX_BUDGET,
): Promise<Section[]> {
  let archive: JSZip;
  try {
    archive = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch (err) {
    throw new DocxError('corrupt', { cause: err });
  }
  const main = archive.file(MAIN);
  if (!main) throw new DocxError('corrupt');
  const meter = new DocumentWorkMeter(budget.work);
  const inflated = { left: budget.maxInflatedBytes, limit: budget.maxInflatedBytes };
  const styles = archive.file('word/styles.xml');
  const headings: HeadingLevels = styles
    ? await readPart(styles, new DocxStylesReader(), meter, inflated).then((r) => r.levels())
    : new Map();
  const writer = new SectionWriter(meter);
  await readPart(main, new DocxBodyReader(writer, headings, meter), meter, inflated);
  for (const name of NOTES) {
    const notes = archive.file(name);
    if (notes) await readPart(notes, new DocxBodyReader(writer, headings, meter), meter, inflated);
  }
  const sections = writer.sections();
  if (sections.length === 0) throw new DocxError('no_text');
  return sections;
}

/** What reads one part's XML events. */
export interface PartReader {
  open(tag: SaxesTagNS, depth: number): void;
  text(text: string): void;
  close(tag: SaxesTagNS, depth: number): void;
}

/**
 * Inflates a part chunk by chunk and hands each to the XML parser as it comes: neither the
 * part's bytes nor its text are ever held whole. Stops at the first error: the inflate budget
 * spent, the work meter's budget spent (DocumentTooComplex), or XML that is not well-formed.
 */
function readPart<R extends PartReader>(
  entry: JSZip.JSZipObject,
  reader: R,
  meter: DocumentWorkMeter,
  inflated: { left: number; limit: number },
): Promise<R> {
  return new Promise((resolve, reject) => {
    const parser = new SaxesParser({ xmlns: true, position: false });
    let depth = 0;
    parser.on('opentag', (tag) => {
      depth++;
      meter.element(depth);
      reader.open(tag, depth);
    });
    parser.on('text', (text) => reader.text(text));
    parser.on('cdata', (text) => reader.text(text));
    parser.on('closetag', (tag) => {
      reader.close(tag, depth);
      depth--;
    });
    let decoder: TextDecoder | undefined;
    let failed = false;
    const stream = (entry as StreamableEntry).internalStream('uint8array');
    const fail = (err: unknown) => {
      failed = true;
      stream.pause();
      reject(
        err instanceof DocumentTooComplex || err instanceof DocxError
          ? err
          : new DocxError('corrupt', { cause: err }),
      );
    };
    stream
      .on('data', (chunk) => {
        if (failed) return;
        try {
          inflated.left -= chunk.byteLength;
          if (inflated.left < 0) throw new DocumentTooComplex('inflatedBytes', inflated.limit);
          decoder ??= new TextDecoder(encodingOf(chunk));
          parser.write(decoder.decode(chunk, { stream: true }));
        } catch (err) {
          fail(err);
        }
      })
      .on('error', (err) => fail(err))
      .on('end', () => {
        if (failed) return;
        try {
          if (decoder) parser.write(decoder.decode());
          parser.close();
          resolve(reader);
        } catch (err) {
          fail(err);
        }
      })
      .resume();
  });
}

/** XML parts are UTF-8 unless they start with a UTF-16 byte-order mark. */
function encodingOf(first: Uint8Array): string {
  if (first[0] === 0xff && first[1] === 0xfe) return 'utf-16le';
  if (first[0] === 0xfe && first[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/**
 * JSZip's documented `internalStream` (api_zipobject/internal_stream), missing from its types:
 * the entry's content as a stream of chunks, inflated as it is read.
 */
type StreamableEntry = JSZip.JSZipObject & { internalStream(type: 'uint8array'): StreamHelper };
interface StreamHelper {
  on(event: 'data', listener: (chunk: Uint8Array) => void): StreamHelper;
  on(event: 'error', listener: (err: Error) => void): StreamHelper;
  on(event: 'end', listener: () => void): StreamHelper;
  pause(): StreamHelper;
  resume(): StreamHelper;
}
