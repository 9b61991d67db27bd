import { z } from 'zod';
import { PageSource } from './common';

// What the spec's SSE chat and the OpenAI-compatible endpoint both tell of an answer: its
// sources, why it was refused, its token usage. Here so that both contracts share them
// (chat.ts imports openai.ts, which imports these).

export const Usage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const ChatSource = z.object({
  file_id: z.uuid(),
  file_name: z.string(),
  /** The collection the file is in. */
  collection_id: z.uuid(),
  collection_name: z.string(),
  /** 1-based; the section's number for formats without pages. */
  page: z.number().int(),
  /** For formats without pages: the section's heading path, when it has one. */
  section: z.string().nullable().optional(),
  /** Where the page's text came from: `ocr` for a scanned page (check it against the original). */
  text_source: PageSource.nullable().optional(),
  /** Of the retrieved chunk (or the page's best one); null for a page given whole (`full_text`). */
  similarity: z.number().nullable(),
});

/**
 * Why the chat refused: the best cosine similarity retrieved (null when nothing was), the
 * threshold it had to reach (CHAT_MIN_SIMILARITY, inclusive) and the nearest candidates.
 */
export const ChatRefusal = z.object({
  request_id: z.string(),
  best_similarity: z.number().nullable(),
  threshold: z.number(),
  /** The few most similar chunks retrieved, highest similarity first. */
  candidates: z.array(ChatSource.extend({ similarity: z.number() })),
});
