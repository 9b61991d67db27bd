import { z } from 'zod';
import { PageSource } from './common';
import { Validity } from './document-metadata';
import { FileNow } from './knowledge-upkeep';

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
  /**
   * What the document says it is, when it says: its number (文号, `川办规〔2025〕6号`) and its
   * title. People know documents by these, not by the names their files were uploaded under.
   */
  doc_number: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  /** The collection the file is in. */
  collection_id: z.uuid(),
  collection_name: z.string(),
  /** 1-based; the section's number for formats without pages. */
  page: z.number().int(),
  /** For formats without pages: the section's heading path, when it has one. */
  section: z.string().nullable().optional(),
  /** Where the page's text came from: `ocr` for a scanned page (check it against the original). */
  text_source: PageSource.nullable().optional(),
  /** The passage's chapter and article, or numbered section (`第三章 财政支持 › 第十二条`). */
  heading_path: z.string().nullable().optional(),
  /**
   * Whether the source's document still holds: an answer citing a repealed or amended one says
   * so and names the newer document (its relations).
   */
  validity: Validity.optional(),
  /** Of the retrieved chunk (or the page's best one); null for a page given whole (`full_text`). */
  similarity: z.number().nullable(),
  /**
   * The passage: open it with `GET /moduleknowledge/chunk?id=` (the document viewer highlights
   * it on its page). For a page of chosen files, the passage of the page the citing sentences
   * were taken from; null when no passage clearly is (or the page is not cited): the page itself
   * is the source.
   */
  chunk_id: z.number().int().nullable().optional(),
  /**
   * Where the answer first cites this source, 1-based in the order of first citation (the
   * sources list shows cited sources in that order); null when the answer does not cite it.
   * The sources stay in their prompt order, so that `[n]` in the answer is the n-th source.
   */
  citation: z.number().int().nullable().optional(),
  /**
   * Its file as it stands now, added when a stored conversation is read (never stored: the
   * fields above stay as the answer had them). Absent when knowledge could not be asked.
   */
  now: FileNow.optional(),
});

/**
 * One sentence of an answer checked against the passages it cites (against every retrieved
 * passage when it cites none): `supported` when its words and every number, date, amount and
 * document number in it are found there; else not found in the sources.
 */
export const SentenceSupport = z.object({
  /** 0-based, in the order of the answer's sentences (headings and bare list markers skipped). */
  sentence_index: z.number().int(),
  /** The sentence as checked: its text without Markdown markup. */
  text: z.string(),
  /** The source numbers (1-based, as `[n]` in the answer) the sentence cites. */
  cited: z.array(z.number().int()),
  supported: z.boolean(),
  /** Figures (numbers, dates, amounts, document numbers) of the sentence no passage has. */
  missing: z.array(z.string()).optional(),
});

/**
 * Why the chat refused: the best cosine similarity retrieved (null when nothing was), the
 * threshold it had to reach (CHAT_MIN_SIMILARITY, inclusive) and the nearest candidates.
 */
/** The official answer (标准口径) an answer was given as, and how similar its question was. */
export const OfficialGiven = z.object({
  id: z.uuid(),
  question: z.string(),
  similarity: z.number(),
});

export const ChatRefusal = z.object({
  request_id: z.string(),
  best_similarity: z.number().nullable(),
  threshold: z.number(),
  /** The few most similar chunks retrieved, highest similarity first. */
  candidates: z.array(ChatSource.extend({ similarity: z.number() })),
});
