import { z } from 'zod';
import { enumOf } from '../service/enum';
import { ChatSource } from './chat-sources';

// What the keepers of a collection do with its answers: official answers (标准口径) given as
// they were written, the threshold a question must reach to get one, and the gap report of the
// questions the knowledge base could not answer well. Declared here, used by chatService.

/** A passage an official answer cites, as the chat's sources tell it. */
export const OfficialCitation = ChatSource.pick({
  file_id: true,
  file_name: true,
  collection_id: true,
  collection_name: true,
  page: true,
  section: true,
  heading_path: true,
  text_source: true,
  chunk_id: true,
});

/** An answer a collection's owners wrote or approved for a question, given as written. */
export const OfficialAnswer = z.object({
  id: z.uuid(),
  collection_id: z.uuid(),
  question: z.string(),
  answer: z.string(),
  citations: z.array(OfficialCitation),
  created_by: z.string(),
  updated_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const OfficialAnswerInput = z.object({
  /** Changes this official answer; a new one without it. */
  id: z.uuid().optional(),
  collection_id: z.uuid(),
  question: z.string().trim().min(1).max(2000),
  answer: z.string().trim().min(1).max(20_000),
  /** The passages it cites (chunk ids, e.g. from a search or an answer's sources), in order. */
  citations: z.array(z.number().int().min(1)).max(20).default([]),
  /** The gap groups this answer settles (their questions are marked resolved). */
  resolves: z.array(z.number().int().min(1)).max(500).optional(),
});

/** How a collection's answers are given. */
export const AnswerSettings = z.object({
  collection_id: z.uuid(),
  /** Chat's similarity threshold for a retrieved passage (CHAT_MIN_SIMILARITY). */
  min_similarity: z.number(),
  /** A question at least this similar to an official one gets that answer as written. */
  official_threshold: z.number(),
});

/** Why a question is in the gap report. */
export const GapKind = enumOf(['refused', 'unhelpful', 'unsupported']);

/** Questions staff asked that the collection could not answer well, grouped by similarity. */
export const GapGroup = z.object({
  /** The ids of the questions in the group (what `gaps_resolved` takes). */
  ids: z.array(z.number().int()),
  /** The group's questions, most recent first, each once (at most 10). */
  questions: z.array(z.string()),
  /** How many times they were asked. */
  count: z.number().int(),
  /** Per reason. */
  kinds: z.object({
    refused: z.number().int(),
    unhelpful: z.number().int(),
    unsupported: z.number().int(),
  }),
  /** When one was last asked. */
  latest: z.string(),
  /** The best similarity retrieval found for them (null when nothing was found at all). */
  best_similarity: z.number().nullable(),
  /** The passages closest to them, most similar first (at most 3). */
  closest_passages: z.array(ChatSource),
  resolved: z.boolean(),
});

export const GapReport = z.object({
  collection_id: z.uuid(),
  groups: z.array(GapGroup),
  /** Questions in the report (all groups). */
  total: z.number().int(),
});
