/**
 * How much work one PDF document may cost, and the meter that pdf.js charges while it works.
 *
 * A per-stream cap cannot stop a document whose pages all point at one huge compressed content
 * stream: each page decodes and parses it again. The meter counts, for ONE document, every byte
 * a pdf.js decoder produces and every content-stream byte its operator parser reads, and stops
 * pdf.js (an error thrown inside the decoder or parser) once either total passes its budget. The hooks
 * are added to the bundled pdf.js by dev/patch-pdfjs.mjs; they find the meter through the
 * document's docId in a registry on `globalThis`, so documents parsed at once in one isolate
 * are metered apart.
 *
 * Work is counted in bytes, not milliseconds: inside workerd the clock stands still while code
 * runs (it moves only on I/O), so a time budget could not stop a loop that never waits.
 *
 * A document read in several page-range batches (one invocation each) passes what the earlier
 * batches used; the budget then holds for the whole document.
 */

export interface PdfWork {
  /** Bytes produced by stream decoders (Flate, LZW, …), each decoding counted. */
  decodedBytes: number;
  /** Content-stream bytes read by the operator parser (pages, forms, Type 3 glyphs). */
  parsedBytes: number;
  /**
   * Characters of text the pages yield (charged by pdf-text.ts as it reads them): the page
   * layouts kept until the whole document is read, and read together then, follow it.
   */
  textChars: number;
}

export interface PdfWorkBudget {
  maxDecodedBytes: number;
  maxParsedBytes: number;
  maxTextChars: number;
}

/**
 * 128 MiB decoded, 64 MiB of content parsed, 4 million characters of text (as for the other
 * formats, document-work-budget.ts). Real documents need far less (a 36-page manual: 0.5 MiB
 * decoded, 0.3 MiB parsed; a plain 500-page document 1.3 MiB parsed and 1.5 million
 * characters), and reaching the budget costs about a second of CPU (pdf.js decodes roughly
 * 100–150 MiB/s here and skips whitespace in content at ~90 MiB/s), so an attack buys little:
 * the shared 60 MB stream attack is refused on its third page.
 */
export const DEFAULT_PDF_WORK_BUDGET: Readonly<PdfWorkBudget> = {
  maxDecodedBytes: 128 * 1024 * 1024,
  maxParsedBytes: 64 * 1024 * 1024,
  maxTextChars: 4_000_000,
};

export const NO_PDF_WORK: Readonly<PdfWork> = { decodedBytes: 0, parsedBytes: 0, textChars: 0 };

const REGISTRY_KEY = Symbol.for('kbchat.pdfjs.meters');

/** What the patched pdf.js calls; see dev/patch-pdfjs.mjs. */
interface PdfJsMeter {
  /** False once the budget is spent: pdf.js then stops with a FormatError. */
  charge(kind: keyof PdfWork, bytes: number): boolean;
}

type MeterRegistry = Map<string, PdfJsMeter>;

/** The work of one document so far, charged by pdf.js while it is registered. */
export class PdfWorkMeter implements PdfJsMeter {
  readonly #budget: PdfWorkBudget;
  readonly #used: PdfWork;
  #exceeded: keyof PdfWork | undefined;

  constructor(budget: PdfWorkBudget, alreadyUsed: PdfWork = NO_PDF_WORK) {
    assertBudget(budget);
    this.#budget = { ...budget };
    // Work recorded before a kind was counted (a document whose ingest began before) is 0.
    this.#used = { ...NO_PDF_WORK, ...alreadyUsed };
    this.#exceeded = exceededKind(this.#used, this.#budget);
  }

  /** Which budget is spent, if one is: from then on every further charge is refused. */
  get exceeded(): keyof PdfWork | undefined {
    return this.#exceeded;
  }

  get used(): PdfWork {
    return { ...this.#used };
  }

  /** Adds work; false when the budget is (now) spent, and pdf.js must stop. */
  charge(kind: keyof PdfWork, bytes: number): boolean {
    if (this.#exceeded !== undefined) return false;
    this.#used[kind] += bytes;
    this.#exceeded = exceededKind(this.#used, this.#budget);
    return this.#exceeded === undefined;
  }

  /**
   * Lets pdf.js charge this meter for the document with `docId` (a loading task's id) until
   * the returned function is called. Register before pdf.js reads the document.
   */
  register(docId: string): () => void {
    const registry = meterRegistry();
    if (registry.has(docId)) throw new Error(`a work meter is already registered for ${docId}`);
    registry.set(docId, this);
    return () => {
      if (registry.get(docId) === this) registry.delete(docId);
    };
  }
}

/** How many documents have a meter registered now (for tests: none may be left behind). */
export function registeredMeterCount(): number {
  return meterRegistry().size;
}

function meterRegistry(): MeterRegistry {
  const holder = globalThis as unknown as Record<symbol, MeterRegistry | undefined>;
  let registry = holder[REGISTRY_KEY];
  if (registry === undefined) {
    registry = new Map();
    holder[REGISTRY_KEY] = registry;
  }
  return registry;
}

function exceededKind(used: PdfWork, budget: PdfWorkBudget): keyof PdfWork | undefined {
  if (used.decodedBytes > budget.maxDecodedBytes) return 'decodedBytes';
  if (used.parsedBytes > budget.maxParsedBytes) return 'parsedBytes';
  if (used.textChars > budget.maxTextChars) return 'textChars';
  return undefined;
}

function assertBudget(budget: PdfWorkBudget): void {
  for (const [name, value] of Object.entries(budget)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
  }
}
