import { WorkerEntrypoint } from 'cloudflare:workers';
import type { FileFormat } from '../db/schema';
import type { DetectedFormat } from '../ingest/detect-format';
import { documentSections } from '../ingest/document-sections';
import { extractPdfLayout, type PdfLayoutBatch, type PdfLayoutOptions } from '../ingest/pdf-text';
import type { Section } from '../ingest/section-writer';
import { readResult, type ReadResult } from './read-result';

/**
 * The reader of uploaded documents: PDF pages into layouts, other formats into sections. It
 * runs in a worker of its own (reader/wrangler.toml), which the ingestion workflow calls over
 * a service binding, so that reading an untrusted file — the one step whose memory and CPU an
 * upload decides — never shares an isolate (in production) or a process (with `npm run dev`)
 * with the requests of everyone else. It holds no binding and no state: bytes in, text out.
 */
export class DocumentReader extends WorkerEntrypoint {
  /** Answers at once: the knowledge worker's health check proves the reader is reachable. */
  ping(): true {
    return true;
  }

  /** The layouts of a range of a PDF's pages, with the work they used (pdf-text.ts). */
  pdfLayout(bytes: Uint8Array, options: PdfLayoutOptions): Promise<ReadResult<PdfLayoutBatch>> {
    // The bytes arrived as this isolate's own copy: pdf.js may take them.
    return readResult(() => extractPdfLayout(bytes, { ...options, consumeBytes: true }), options);
  }

  /** The sections of a document without pages (document-sections.ts). */
  sections(
    bytes: Uint8Array,
    detected: DetectedFormat,
    limits: { maxPages: number },
  ): Promise<ReadResult<Section[]>> {
    const format = detected.format as Exclude<FileFormat, 'pdf'>;
    return readResult(() => documentSections(bytes, detected, limits), { ...limits, format });
  }
}
