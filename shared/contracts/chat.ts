import { z } from 'zod';
import { defineService, enumOf, method } from '../service';
import { FileIds, ModuleHealth } from './common';

/** One SSE message, with the field names the original's clients read. */
export const ChatMessage = z.object({
  content: z.string(),
  request_id: z.string(),
  type: enumOf(['content', 'error']),
});

export const ChatSource = z.object({
  file_id: z.uuid(),
  file_name: z.string(),
  /** 1-based; the section's number for formats without pages. */
  page: z.number().int(),
  /** For formats without pages: the section's heading path, when it has one. */
  section: z.string().nullable().optional(),
  similarity: z.number(),
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
  candidates: z.array(ChatSource),
});

export const ChatDone = z.object({
  request_id: z.string(),
  /** As the model reports it, when it does. */
  usage: z
    .object({
      prompt_tokens: z.number().int(),
      completion_tokens: z.number().int(),
      total_tokens: z.number().int(),
    })
    .optional(),
});

/** The chat module: answers from the knowledge base, streamed over SSE. */
export const chatService = defineService({
  name: 'chat',
  prefix: '/modulechat',
  doc: 'Takes a prompt, retrieves context from knowledge, asks a language model, streams the answer.',
  methods: {
    GetHealth: method({
      doc: `Proves the path chat depends on: RPC to knowledge (and its database) and the model.
@role(guest)`,
      output: z.object({
        module: z.string(),
        knowledge: ModuleHealth,
        model: z.object({ ok: z.literal(true), latency_ms: z.number(), dimensions: z.number() }),
      }),
    }),
    Chat: method({
      doc: `Answers a prompt from the knowledge base only, streamed as Server-Sent Events.
Each message is \`data: {"content","request_id","type"}\`: first the constructed prompt with its
retrieved context (unless CHAT_ECHO_PROMPT is false), then the answer in chunks (type
\`content\`). Then an \`event: sources\` message (file, page — and section, for documents
without pages — and similarity of each context item) and a final \`event: done\`. When
nothing relevant is found, or anything fails, the stream ends with one message of type
\`error\` instead; when it refuses because nothing was similar enough, an \`event: refusal\`
follows that message with the best similarity found, the threshold and the nearest candidates
(file, page, similarity). \`file_id\` (ids joined by commas) limits retrieval to those
files. @handler(streamResponse)`,
      params: {
        body: z.object({
          prompt: z.string().refine((text) => text.trim().length > 0, 'must not be empty'),
          file_id: FileIds.optional(),
        }),
      },
      stream: ChatMessage,
      events: { sources: z.array(ChatSource), done: ChatDone, refusal: ChatRefusal },
    }),
  },
});
