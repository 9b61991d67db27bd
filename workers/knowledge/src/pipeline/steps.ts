import { NonRetryableError } from 'cloudflare:workflows';
import { ingestDb } from '#shared/db/request-db';
import { AppError } from '#shared/errors/app-error';
import { errorDetail } from '#shared/errors/catalogue';
import { toAppError } from '#shared/errors/classify';
import type { Logger } from '#shared/log/logger';
import { createModelClient } from '#shared/model/client';
import { knowledgeConfig, type IngestSettings } from '../config';
import * as schema from '../db/schema';
import { EMBEDDING_COLUMN_DIMENSIONS, type FileFormat } from '../db/schema';
import { chunkDocument, type LocatedChunk } from '../ingest/chunker';
import { detectFormat } from '../ingest/detect-format';
import { DocumentError, documentErrorOf, unsupportedFormat } from '../ingest/document-error';
import { embedTexts, embeddingModelId } from '#shared/model/embed';
import { normaliseForIndex } from '../ingest/normalise-for-index';
import {
  hasExtractableText,
  pageTextsWithLines,
  type PageTextWithLines,
} from '../ingest/page-text';
import { PdfTextError } from '../ingest/pdf-failure';
import { ocrPageLayout } from '../ingest/ocr-layout';
import { isInitialStructure, type StructureState } from '../ingest/structure/document-structure';
import type { PageLayout, PageTextSource } from '../ingest/pdf-layout';
import type { KnowledgeDb } from '../store/files';
import {
  clearLayouts,
  fileForIngest,
  layoutsOf,
  pagesNeedingOcr,
  pagesOf,
  runAll,
  setProgress,
  storeLayouts,
  storePages,
  storedPageCount,
  type Progress,
} from '../store/ingest';
import { getOriginal } from '../store/originals';
import { readyAndSwap } from '../store/versions';
import { embedAndInsertPaced } from './paced-inserts';
import { isRefusal, ocrEndpoint, readPageByOcr, type OcrEndpoint } from './read-by-ocr';
import { READER_FAILED, readPdfLayout, readSections } from './read-document';

/**
 * The steps of ingesting one file (ingest-workflow.ts runs them as durable workflow steps).
 * Each step is small enough for one invocation's CPU and memory — one batch of pages, one
 * batch of chunks — keeps its state in Postgres (and the original in R2), never in memory,
 * returns only small results, and can run again after a failure or a restart with the same
 * outcome. Progress is written as it goes, so the file's row is its status.
 */
export interface StepContext {
  env: KnowledgeEnv;
  log: Logger;
}

export interface PageRange {
  first: number;
  last: number;
}

export interface IngestPlan {
  format: FileFormat;
  pages: number;
  /** The PDF page ranges still to extract, one step each; none once every page is read. */
  batches: PageRange[];
  /**
   * The pages' text is stored already (formats without pages, and PDFs small enough to read in
   * this first step): no text step follows. (This and `chunkPlan` are absent from the plans of
   * ingests begun before they were added.)
   */
  textStored?: boolean;
  /** The chunk steps, when the text was small enough to plan them here too (PLAN_AT_ONCE_CHARS). */
  chunkPlan?: ChunkPlan;
}

/**
 * A text up to this long is chunked and planned in the first step, which read it. A longer one
 * is planned in a step of its own, as before: the first step also holds the original's bytes,
 * and its memory must stay within budget for the largest documents. (One batch of PDF pages is
 * usually far below it: 25 pages of dense text are ~100,000 characters.)
 */
const PLAN_AT_ONCE_CHARS = 1_000_000;

/** The file's row is gone (deleted while processing): the workflow ends quietly. */
export class FileGone extends NonRetryableError {
  constructor() {
    super('the file was deleted', 'FileGone');
  }
}

const settings = (ctx: StepContext): IngestSettings => knowledgeConfig(ctx.env).ingest;
// Ingestion acts for nobody in particular: its statements may touch this file's rows only.
const dbOf = (ctx: StepContext, fileId: string): KnowledgeDb =>
  ingestDb(knowledgeConfig(ctx.env).database, schema, fileId);

async function loadFile(ctx: StepContext, kdb: KnowledgeDb, fileId: string) {
  const [file] = await kdb.run(fileForIngest(kdb.db, fileId));
  if (!file) throw new FileGone();
  return file;
}

async function originalBytes(ctx: StepContext, fileId: string): Promise<Uint8Array> {
  const original = await getOriginal(ctx.env.FILES, fileId);
  if (!original) throw new FileGone();
  return new Uint8Array(await original.arrayBuffer());
}

/**
 * Runs a step's work. A document the service cannot use fails the file at once, with the
 * reason the uploader reads, and is not retried; anything else (the model or the database
 * away) is written down as the file's last error and retried by the workflow.
 */
async function guarded<T>(
  ctx: StepContext,
  fileId: string,
  work: (kdb: KnowledgeDb) => Promise<T>,
): Promise<T> {
  const kdb = dbOf(ctx, fileId);
  try {
    return await work(kdb);
  } catch (err) {
    if (err instanceof FileGone) throw err;
    const failure = documentErrorOf(err, settings(ctx).maxPages);
    if (failure instanceof DocumentError) {
      await kdb.run(
        setProgress(kdb.db, fileId, {
          status: 'failed',
          errorCode: failure.code,
          errorMessage: failure.message,
        }),
      );
      throw new NonRetryableError(failure.message, 'DocumentError');
    }
    const known = toAppError(err);
    ctx.log.warn('ingest step failed; it will be retried', { file_id: fileId, code: known.code });
    await kdb
      .run(setProgress(kdb.db, fileId, { errorCode: known.code, errorMessage: known.message }))
      .catch(() => undefined);
    throw err;
  }
}

/** Reads what the file is and plans the work; formats without pages are read right here. */
export function begin(ctx: StepContext, fileId: string, workflowId: string): Promise<IngestPlan> {
  return guarded(ctx, fileId, async (kdb) => {
    await loadFile(ctx, kdb, fileId);
    const limits = { maxPages: settings(ctx).maxPages };
    const bytes = await originalBytes(ctx, fileId);
    const detected = detectFormat(bytes);
    if (!detected) throw unsupportedFormat();
    if (detected.format === 'pdf') {
      // The first batch of pages is read while the document is open anyway: one parse and one
      // step fewer, and a PDF of one batch (most of them) is read whole here.
      const { pageCount, pages, used } = await readPdfLayout(ctx.env.READER, bytes, {
        ...limits,
        pages: { first: 1, last: settings(ctx).pagesPerStep },
      });
      const [first, ...rest] = ranges(pageCount, settings(ctx));
      const progress: Progress = {
        status: 'processing',
        pages: pageCount,
        pagesDone: first?.last ?? 0,
        workflowId,
        decodedBytes: used.decodedBytes,
        parsedBytes: used.parsedBytes,
        textChars: used.textChars,
      };
      // Pages for OCR keep the layouts until OCR has read them (the steps after these).
      if (rest.length === 0 && !(ocrOf(ctx) && pages.some(needsOcr))) {
        const texts = pageTextsWithLines(pages);
        const chunkPlan = planAtOnce(
          ctx,
          texts.map((page) => page.text),
        );
        await storePdfText(kdb, fileId, pages, texts, { ...progress, chunks: chunkPlan?.chunks });
        return { format: 'pdf', pages: pageCount, batches: [], textStored: true, chunkPlan };
      }
      await runAll(kdb, [
        ...storeLayouts(kdb.db, fileId, pages),
        setProgress(kdb.db, fileId, progress),
      ]);
      return { format: 'pdf', pages: pageCount, batches: rest };
    }
    const sections = await readSections(ctx.env.READER, bytes, detected, limits);
    const chunkPlan = planAtOnce(
      ctx,
      sections.map((section) => section.text),
      sections.map((section) => section.label),
    );
    const progress: Progress = {
      status: 'processing',
      pages: sections.length,
      pagesDone: sections.length,
      chunks: chunkPlan?.chunks,
      workflowId,
    };
    await runAll(kdb, [
      ...storePages(
        kdb.db,
        fileId,
        sections.map((section, i) => ({ page: i + 1, text: section.text, label: section.label })),
      ),
      setProgress(kdb.db, fileId, progress),
    ]);
    return {
      format: detected.format,
      pages: sections.length,
      batches: [],
      textStored: true,
      chunkPlan,
    };
  });
}

function ranges(pageCount: number, ingest: IngestSettings): PageRange[] {
  const batches: PageRange[] = [];
  for (let first = 1; first <= pageCount; first += ingest.pagesPerStep) {
    batches.push({ first, last: Math.min(first + ingest.pagesPerStep - 1, pageCount) });
  }
  return batches;
}

/** One batch of PDF pages: their layouts, kept until the whole document is read. */
export function extractPages(ctx: StepContext, fileId: string, range: PageRange) {
  return guarded(ctx, fileId, async (kdb) => {
    const file = await loadFile(ctx, kdb, fileId);
    const batch = await readPdfLayout(ctx.env.READER, await originalBytes(ctx, fileId), {
      maxPages: settings(ctx).maxPages,
      pages: range,
      alreadyUsed: {
        decodedBytes: file.decodedBytes,
        parsedBytes: file.parsedBytes,
        textChars: file.textChars,
      },
    });
    await runAll(kdb, [
      ...storeLayouts(kdb.db, fileId, batch.pages),
      setProgress(kdb.db, fileId, {
        pagesDone: range.last,
        decodedBytes: batch.used.decodedBytes,
        parsedBytes: batch.used.parsedBytes,
        textChars: batch.used.textChars,
      }),
    ]);
    return { pages: batch.pages.length };
  });
}

/** The OCR endpoint, when OCR is on and configured. */
const ocrOf = (ctx: StepContext): OcrEndpoint | undefined =>
  ocrEndpoint(knowledgeConfig(ctx.env).ocr, ctx.env.OCR_SERVICE);

const needsOcr = (layout: PageLayout) =>
  layout.source?.kind === 'text_layer' && layout.source.needsOcr !== undefined;

/**
 * The pages OCR reads — those whose text layer was judged unusable (text-source.ts) — in
 * steps of a few pages; none when OCR is off (their text layer, if any, is used as it is).
 */
export function planOcr(ctx: StepContext, fileId: string): Promise<{ steps: number[][] }> {
  return guarded(ctx, fileId, async (kdb) => {
    await loadFile(ctx, kdb, fileId);
    if (!ocrOf(ctx)) return { steps: [] };
    const pages = (await kdb.run(pagesNeedingOcr(kdb.db, fileId))).map((row) => row.page);
    await kdb.run(setProgress(kdb.db, fileId, { ocrPages: pages.length, ocrPagesDone: 0 }));
    const perStep = knowledgeConfig(ctx.env).ocr.pagesPerStep;
    const steps: number[][] = [];
    for (let at = 0; at < pages.length; at += perStep) steps.push(pages.slice(at, at + perStep));
    return { steps };
  });
}

/**
 * One OCR step: its pages read by the OCR service, one request each, their layouts replaced by
 * what OCR read. `before` pages were read by the steps before (the progress shown). A page the
 * service refuses (a noise image too complex to read) is left without text; a service that is
 * away fails the step, which is retried (the file's status says it waits for the reader).
 */
export function readScannedPages(
  ctx: StepContext,
  fileId: string,
  pages: readonly number[],
  before: number,
) {
  return guarded(ctx, fileId, async (kdb) => {
    await loadFile(ctx, kdb, fileId);
    const endpoint = ocrOf(ctx);
    if (!endpoint) throw new AppError('ocr_unavailable');
    for (const [i, page] of pages.entries()) {
      const original = await getOriginal(ctx.env.FILES, fileId);
      if (!original) throw new FileGone();
      const read = await readPageByOcr(endpoint, original.body, page);
      const layout = isRefusal(read)
        ? refusedPage(read.page, read.refused, ctx)
        : ocrPageLayout(read);
      await runAll(kdb, [
        ...storeLayouts(kdb.db, fileId, [{ ...layout, page }]),
        setProgress(kdb.db, fileId, {
          ocrPagesDone: before + i + 1,
          errorCode: null,
          errorMessage: null,
        }),
      ]);
    }
    return { pages: pages.length };
  });
}

/** A page OCR would not read: no text, and what OCR said in the log. */
function refusedPage(page: number, reason: string, ctx: StepContext): PageLayout {
  ctx.log.warn('OCR refused a page; it is left without text', { page, reason });
  return { page, width: 0, height: 0, blocks: [], source: { kind: 'ocr', confidence: 0 } };
}

/**
 * A PDF's text from all its pages' layouts at once: running headers and footers, page
 * numbers and hyphenation can only be told apart with the whole document in view.
 */
export function composePdfText(ctx: StepContext, fileId: string) {
  return guarded(ctx, fileId, async (kdb) => {
    await loadFile(ctx, kdb, fileId);
    const rows = await kdb.run(layoutsOf(kdb.db, fileId));
    if (rows.length === 0) {
      // Run again after its batch committed (a restart before the workflow recorded the step):
      // the batch stored the pages and cleared the layouts, so its outcome is in the pages.
      // Without this, the missing layouts read as a PDF without text and the file failed.
      const [stored] = await kdb.run(storedPageCount(kdb.db, fileId));
      if (stored && stored.pages > 0) return { pages: stored.pages };
    }
    const layouts = rows.map((row) => row.layout as PageLayout);
    await storePdfText(kdb, fileId, layouts, pageTextsWithLines(layouts), {
      pagesDone: layouts.length,
    });
    return { pages: layouts.length };
  });
}

/**
 * Every page's text (`texts`: pageTextsWithLines of all the layouts), where it came from and
 * where its lines stand on the page (the document viewer's highlights), stored with the
 * progress; the layouts go. A document without any text fails: `ocr_no_text` when OCR read pages of it
 * and found none either, `no_text` when OCR is off.
 */
async function storePdfText(
  kdb: KnowledgeDb,
  fileId: string,
  layouts: readonly PageLayout[],
  texts: readonly PageTextWithLines[],
  progress: Progress,
) {
  if (!hasExtractableText(texts.map((page) => page.text))) {
    throw new PdfTextError(
      layouts.some((l) => l.source?.kind === 'ocr') ? 'ocr_no_text' : 'no_text',
    );
  }
  await runAll(kdb, [
    ...storePages(
      kdb.db,
      fileId,
      texts.map(({ text, lines }, i) => {
        const layout = layouts[i];
        // A page OCR refused has no size: nothing stands anywhere on it.
        const sized = layout !== undefined && layout.width > 0 && layout.height > 0;
        return {
          page: i + 1,
          text,
          label: null,
          source: pageSource(layout?.source),
          ...(sized ? { width: layout.width, height: layout.height, lines } : {}),
        };
      }),
    ),
    clearLayouts(kdb.db, fileId),
    setProgress(kdb.db, fileId, { ...progress, ...sourceSummary(layouts) }),
  ]);
}

/** The file's account of where its text came from: pages repaired, OCR's mean confidence. */
function sourceSummary(layouts: readonly PageLayout[]): Progress {
  let repairedPages = 0;
  let ocrPages = 0;
  let confidence = 0;
  for (const { source } of layouts) {
    if (source?.kind === 'repaired') repairedPages++;
    if (source?.kind === 'ocr') {
      ocrPages++;
      confidence += source.confidence;
    }
  }
  return {
    repairedPages,
    ocrConfidence: ocrPages > 0 ? Math.round((confidence / ocrPages) * 1000) / 1000 : null,
  };
}

/** Where a stored page's text came from: a page that waited for OCR in vain keeps its layer. */
function pageSource(source: PageTextSource | undefined): PageTextSource | undefined {
  if (source?.kind === 'text_layer' && source.needsOcr) return { kind: 'text_layer' };
  return source;
}

/**
 * The chunks of a file's pages, the same every time for the same text (so steps can share
 * them): of every page, or of `pages.first`…`pages.last`, numbered as in the whole file given
 * the index of the first chunk on `pages.first`. Chunks never cross pages, so a range of
 * pages chunks exactly as it does within the whole file.
 */
async function chunksOf(
  ctx: StepContext,
  kdb: KnowledgeDb,
  fileId: string,
  pages?: PageRange & { firstIndex: number; structure?: StructureState },
): Promise<Chunked> {
  const rows = await kdb.run(pagesOf(kdb.db, fileId, pages));
  const firstPage = pages?.first ?? 1;
  const texts: string[] = [];
  const labels: (string | null)[] = [];
  for (const row of rows) {
    texts[row.page - firstPage] = row.text;
    labels[row.page - firstPage] = row.label;
  }
  return chunkTexts(
    ctx,
    Array.from(texts, (text) => text ?? ''),
    {
      labels,
      firstPage,
      firstIndex: pages?.firstIndex ?? 0,
      structure: pages?.structure,
    },
  );
}

/** A document's chunks, and where its structure stands at each page (chunkDocument). */
interface Chunked {
  chunks: LocatedChunk[];
  states: StructureState[];
}

/** The chunks of consecutive pages' texts, the first of them page `firstPage`. */
function chunkTexts(
  ctx: StepContext,
  texts: readonly string[],
  options: {
    labels?: readonly (string | null)[];
    firstPage?: number;
    firstIndex?: number;
    structure?: StructureState;
  } = {},
): Chunked {
  const { firstPage = 1, firstIndex = 0 } = options;
  const ingest = settings(ctx);
  const { chunks, states } = chunkDocument(texts, {
    chunkSize: ingest.chunkSize,
    overlap: ingest.chunkOverlap,
    labels: options.labels,
    structure: options.structure,
  });
  return {
    chunks: chunks.map((chunk) => ({
      ...chunk,
      page: chunk.page + firstPage - 1,
      index: chunk.index + firstIndex,
    })),
    states,
  };
}

/** One chunk step's work: chunks `from`…`to - 1`, on pages `first`…`last`. */
export interface ChunkBatch extends PageRange {
  from: number;
  to: number;
  /** The index of the first chunk on page `first`. */
  firstIndex: number;
  /**
   * Where the document's structure stands at page `first`, so that the step chunks its pages as
   * the whole document chunks them (absent in batches planned before structure was read).
   */
  structure?: StructureState;
}

/**
 * The file's chunk count and its chunk steps. Each step reads and chunks only the pages its
 * chunks are on: re-chunking the whole file in every step made a large file's ingest
 * quadratic (a 500-page PDF: 17 steps each reading all 500 pages, ~0.85 s of CPU apiece).
 */
export function planChunks(ctx: StepContext, fileId: string) {
  return guarded(ctx, fileId, async (kdb) => {
    await loadFile(ctx, kdb, fileId);
    const plan = planOf(ctx, await chunksOf(ctx, kdb, fileId));
    await kdb.run(setProgress(kdb.db, fileId, { chunks: plan.chunks }));
    return plan;
  });
}

/** The file's chunk count and its chunk steps. */
export interface ChunkPlan {
  chunks: number;
  batches: ChunkBatch[];
}

const planOf = (ctx: StepContext, { chunks, states }: Chunked): ChunkPlan => ({
  chunks: chunks.length,
  batches: chunkBatches(chunks, settings(ctx).chunksPerStep, states),
});

/** The whole document's chunk plan, if its text is short enough to plan in the step at hand. */
function planAtOnce(
  ctx: StepContext,
  texts: readonly string[],
  labels?: readonly (string | null)[],
): ChunkPlan | undefined {
  let length = 0;
  for (const text of texts) length += text.length;
  return length <= PLAN_AT_ONCE_CHARS ? planOf(ctx, chunkTexts(ctx, texts, { labels })) : undefined;
}

function chunkBatches(
  chunks: readonly LocatedChunk[],
  perStep: number,
  states: readonly StructureState[],
): ChunkBatch[] {
  const firstOnPage = new Map<number, number>();
  for (const chunk of chunks)
    if (!firstOnPage.has(chunk.page)) firstOnPage.set(chunk.page, chunk.index);
  const batches: ChunkBatch[] = [];
  for (let from = 0; from < chunks.length; from += perStep) {
    const to = Math.min(from + perStep, chunks.length);
    const first = chunks[from]!.page;
    batches.push({
      from,
      to,
      first,
      last: chunks[to - 1]!.page,
      firstIndex: firstOnPage.get(first)!,
      // Where nothing is open the batch needs nothing: plans of documents without structure
      // stay as they were.
      ...(isInitialStructure(states[first - 1]!) ? {} : { structure: states[first - 1] }),
    });
  }
  return batches;
}

/**
 * One batch of chunks: embedded (their index form, see normaliseForIndex) and stored. The last
 * batch also makes the file ready, in the same transaction as its chunks: one step fewer, and
 * still no moment when the file is searchable with chunks missing.
 */
export function indexChunks(
  ctx: StepContext,
  fileId: string,
  batch: ChunkBatch,
  options: { last?: boolean } = {},
) {
  return guarded(ctx, fileId, async (kdb) => {
    const file = await loadFile(ctx, kdb, fileId);
    const config = knowledgeConfig(ctx.env);
    const slice = (await chunksOf(ctx, kdb, fileId, batch)).chunks.filter(
      (chunk) => chunk.index >= batch.from && chunk.index < batch.to,
    );
    // Embedded and stored a part at a time, counted as they are: progress moves within a step.
    await embedAndInsertPaced(
      kdb,
      file,
      slice,
      async (part) => {
        const { vectors } = await embedTexts(
          createModelClient(config.model),
          config.model,
          part.map((chunk) => normaliseForIndex(chunk.content)),
          {
            limits: { inputs: config.ingest.batchInputs, tokens: config.ingest.batchTokens },
            columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
          },
        );
        return part.map((chunk, i) => ({
          ...chunk,
          embedding: vectors[i]!,
          embeddingModel: embeddingModelId(config.model),
        }));
      },
      {
        last: options.last
          ? readyAndSwap(kdb.db, fileId, setProgress(kdb.db, fileId, ready(file)))
          : setProgress(kdb.db, fileId, {
              chunksDone: batch.to,
              errorCode: null,
              errorMessage: null,
            }),
        holdMs: config.ingest.insertHoldMs,
        storedBefore: batch.from,
      },
    );
    return { indexed: slice.length };
  });
}

/** The file becomes searchable (a file without chunks; see indexChunks for the others). */
export function finish(ctx: StepContext, fileId: string) {
  return guarded(ctx, fileId, async (kdb) => {
    const file = await loadFile(ctx, kdb, fileId);
    await kdb.batch(readyAndSwap(kdb.db, fileId, setProgress(kdb.db, fileId, ready(file))));
  });
}

/** Every chunk is in place: the file's progress when it becomes searchable. */
const ready = (file: { pages: number; chunks: number }): Progress => ({
  status: 'ready',
  pagesDone: file.pages,
  chunksDone: file.chunks,
  errorCode: null,
  errorMessage: null,
});

/**
 * After the retries of a step ran out: the file fails with the last error a step wrote down
 * (the model or the database away), or a general one. A file already failed (a document the
 * service cannot use) keeps its reason. A document whose reading failed at every try (the
 * reader's isolate ran out of memory or CPU on it) is given up, with what the uploader can do.
 */
export async function fail(ctx: StepContext, fileId: string) {
  const kdb = dbOf(ctx, fileId);
  const [file] = await kdb.run(fileForIngest(kdb.db, fileId));
  if (!file || file.status === 'failed' || file.status === 'ready') return;
  await kdb.run(
    setProgress(kdb.db, fileId, {
      status: 'failed',
      ...failureOf(file.errorCode, file.errorMessage, settings(ctx)),
    }),
  );
}

function failureOf(
  lastCode: string | null,
  lastMessage: string | null,
  ingest: IngestSettings,
): { errorCode: string; errorMessage: string } {
  if (lastCode === 'model_unavailable' || lastCode === 'database_unavailable') {
    return {
      errorCode: lastCode,
      errorMessage: `${lastMessage ?? 'A service the ingestion needs is unavailable.'} Retry the file when it is back.`,
    };
  }
  if (lastCode === 'ocr_unavailable') {
    return { errorCode: 'ocr_gave_up', errorMessage: errorDetail('ocr_gave_up') };
  }
  if (lastCode === READER_FAILED) {
    return {
      errorCode: 'ingest_gave_up',
      errorMessage: `Reading the file failed ${ingest.retryLimit + 1} times in a row, so it was given up. It may need more memory or time than allowed: save it again (for example as PDF or plain text), or split it, and upload it again.`,
    };
  }
  return {
    errorCode: 'ingest_failed',
    errorMessage: 'The file could not be processed. Retry it, or delete it and upload it again.',
  };
}
