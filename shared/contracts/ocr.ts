import { z } from 'zod';

/**
 * The OCR service's wire format (services/ocr, `POST /v1/read?first=&last=` with a PDF as the
 * body; its README has the rest), declared once: the service answers it, the knowledge
 * worker's ingestion checks every answer against it (pipeline/read-by-ocr.ts), the benchmark
 * reads it. The service is ours, but it is another process, reached over HTTP or a container.
 */

/** A line of text as read: boxes in page points, origin top left, y down. */
export const OcrLine = z.object({
  text: z.string(),
  /** The mean probability of the line's characters, 0..1. */
  confidence: z.number().min(0).max(1),
  /** [x0, y0, x1, y1]. */
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
});

export const OcrPage = z.object({
  page: z.number().int().positive(),
  /** The page in PDF points at scale 1, in display orientation. */
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  /** The resolution it was read at (lower than the service's setting for a huge page). */
  dpi: z.number().positive(),
  /** In reading order: top to bottom, then left to right. */
  lines: z.array(OcrLine),
  /** The lines' mean confidence weighted by characters; 0 without lines. */
  confidence: z.number().min(0).max(1),
});

/** 200: the pages asked for, in order. */
export const OcrRead = z.object({ pages: z.array(OcrPage) });

/** Any other status: a stable code and a message safe to show. */
export const OcrProblem = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export type OcrLine = z.infer<typeof OcrLine>;
export type OcrPage = z.infer<typeof OcrPage>;
