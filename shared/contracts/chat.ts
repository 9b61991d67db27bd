import { z } from 'zod';
import { defineService, enumOf, method } from '../service';
import { CollectionIds, FileIds, ModuleHealth } from './common';

/** One SSE message, with the field names the original's clients read. */
export const ChatMessage = z.object({
  content: z.string(),
  request_id: z.string(),
  type: enumOf(['content', 'error']),
  /**
   * On `error` messages only: a stable code a client may translate by (`no_relevant_knowledge`,
   * `files_unavailable`, `collections_unavailable`, `knowledge_unavailable`, `model_failed`); `content` is already in the
   * question's language.
   */
  code: z.string().optional(),
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
  /** Of the retrieved chunk (or the page's best one); null for a page given whole (`full_text`). */
  similarity: z.number().nullable(),
});

/**
 * How the context was chosen: `retrieval` (the spec's: the 10 most similar chunks of all files,
 * kept from the similarity threshold on), `full_text` (a chat limited to files whose whole text
 * fits the context budget: all of it, page by page), `file_retrieval` (limited to files too long
 * for it: the whole pages of their most similar chunks).
 */
export const ChatMode = enumOf(['retrieval', 'full_text', 'file_retrieval']);

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

export const ChatDone = z.object({
  request_id: z.string(),
  mode: ChatMode,
  /** The language the answer was asked in: the question's (`zh` when it has Chinese characters). */
  language: enumOf(['zh', 'en']),
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
without pages — and similarity of each context item) and a final \`event: done\` (with the
\`mode\` used and the answer's \`language\`). When nothing relevant is found, or anything fails,
the stream ends with one message of type \`error\` (with a stable \`code\`) instead; when it
refuses because nothing was similar enough, an \`event: refusal\` follows that message with the
best similarity found, the threshold and the nearest candidates (file, page, similarity).
Answers, refusals and errors are in the question's language (Chinese when it has Chinese
characters, else English).

\`file_id\` (ids joined by commas, or a list of ids) limits the chat to those files: when their
whole text fits CHAT_CONTEXT_CHARS it is all given to the model, page-marked (\`[name p. 3]\`)
so the answer cites pages, and there is no similarity refusal (mode \`full_text\`); else the
whole pages of their CHAT_FILES_TOP most similar chunks, as many as fit (\`file_retrieval\`).
Sources then list the pages the answer cites (all pages given when it cites none).

Every collection the user can read is searched unless \`collection_id\` (ids joined by commas,
or a list) names some; sources name each file's collection.
@handler(streamResponse)`,
      params: {
        body: z.object({
          prompt: z.string().refine((text) => text.trim().length > 0, 'must not be empty'),
          file_id: z
            .union([
              FileIds,
              // The list form: ["id1", "id2"], as JSON clients naturally send it. An empty
              // list is refused, as `,,,` is: leave the field out to search every file.
              z
                .array(z.uuid())
                .min(1)
                .max(100)
                .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
            ])
            .optional(),
          collection_id: z
            .union([
              CollectionIds,
              z
                .array(z.uuid())
                .min(1)
                .max(100)
                .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
            ])
            .optional(),
        }),
      },
      stream: ChatMessage,
      events: { sources: z.array(ChatSource), done: ChatDone, refusal: ChatRefusal },
    }),
  },
});
