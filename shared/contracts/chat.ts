import { z } from 'zod';
import { isTimeZone } from '../i18n/time-zone';
import { defineService, enumOf, fileDownload, method, webResponse } from '../service';
import { AnswerSettings, GapReport, OfficialAnswer, OfficialAnswerInput } from './answer-upkeep';
import { ChatRefusal, ChatSource, OfficialGiven, SentenceSupport, Usage } from './chat-sources';
import { CollectionIds, DatabaseHealth, FileIds, KnowledgeHealth, PageNumber } from './common';
import { DocumentFilters } from './document-metadata';
import { JsonRpcErrorAnswer } from './mcp';
import { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, ModelList } from './openai';
import { UsageLimits, UsageLimitsInput, UsageOverview, UsagePeriod, UsageReport } from './usage';

export { ChatRefusal, ChatSource, OfficialGiven, SentenceSupport };

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

/**
 * How the context was chosen: `retrieval` (the spec's: the 10 most similar chunks of all files,
 * kept from the similarity threshold on), `full_text` (a chat limited to files whose whole text
 * fits the context budget: all of it, page by page), `file_retrieval` (limited to files too long
 * for it: the whole pages of their most similar chunks), `official` (an official answer of the
collection, written by its keepers, given as written without asking the model).
 */
export const ChatMode = enumOf(['retrieval', 'full_text', 'file_retrieval', 'official']);

export const ChatDone = z.object({
  request_id: z.string(),
  mode: ChatMode,
  /** The language the answer was asked in: the question's (`zh` when it has Chinese characters). */
  language: enumOf(['zh', 'en']),
  /** As the model reports it, when it does. */
  usage: Usage.optional(),
  /** Each sentence of the answer checked against its sources (see SentenceSupport). */
  support: z.array(SentenceSupport).optional(),
  /** With `mode: official`: the official answer given, and how similar its question was. */
  official: OfficialGiven.optional(),
});

/** Told at the start of every chat stream (`event: conversation`), before any answer text. */
export const ChatConversation = z.object({
  request_id: z.string(),
  conversation_id: z.uuid(),
  /** The turn this answer is stored as: what feedback names. */
  message_id: z.uuid(),
  /** True when this chat started the conversation. */
  created: z.boolean(),
  title: z.string(),
});

// Printable text: no control characters (line breaks and tabs aside) and no lone surrogates.
const Text = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u, 'must not contain control characters');

export const ConversationTitle = Text(200).refine(
  (text) => text.trim().length > 0,
  'must not be empty',
);

export const Conversation = z.object({
  id: z.uuid(),
  title: z.string(),
  /** The scope of the conversation's latest turn: chosen files, or chosen collections. */
  file_id: z.array(z.uuid()).nullable(),
  collection_id: z.array(z.uuid()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const FeedbackRating = z.enum(['helpful', 'unhelpful']);

export const Feedback = z.object({
  rating: FeedbackRating,
  comment: z.string().nullable(),
  at: z.string(),
});

/**
 * One turn: the question, how it was searched (`retrieval_question`, rewritten from the
 * conversation for a follow-up), and the answer as it was streamed. `status` is `complete`,
 * `incomplete` (the client went away: what was answered by then), `refused` or `failed` (with
 * the stream's error `code`; `answer` is the message the user was shown).
 */
export const ConversationMessage = z.object({
  id: z.uuid(),
  question: z.string(),
  retrieval_question: z.string(),
  answer: z.string(),
  status: enumOf(['complete', 'incomplete', 'refused', 'failed']),
  code: z.string().nullable(),
  sources: z.array(ChatSource),
  mode: ChatMode.nullable(),
  language: enumOf(['zh', 'en']),
  usage: Usage.nullable(),
  feedback: Feedback.nullable(),
  created_at: z.string(),
  /** Each sentence of a complete answer checked against its sources (null for turns before it was). */
  support: z.array(SentenceSupport).nullable().optional(),
  /** The model that answered (null for turns stored before it was recorded). */
  model: z.string().nullable().optional(),
});

const Page = { page: z.number().int(), size: z.number().int(), total: z.number().int() };
const paging = {
  page: PageNumber.default(1),
  size: z.number().int().min(1).max(100).default(20),
};

/** The chat module: answers from the knowledge base, streamed over SSE. */
export const chatService = defineService({
  name: 'chat',
  prefix: '/modulechat',
  doc: 'Takes a prompt, retrieves context from knowledge, asks a language model, streams the answer.',
  methods: {
    GetHealth: method({
      doc: `Proves the path chat depends on: its database, RPC to knowledge (and its database) and the model.
@role(guest)`,
      output: z.object({
        module: z.string(),
        /** Chat's own database (conversations). */
        database: DatabaseHealth,
        knowledge: KnowledgeHealth,
        model: z.object({
          ok: z.literal(true),
          latency_ms: z.number(),
          dimensions: z.number(),
          /** The chat model answers are asked of (CHAT_MODEL). */
          name: z.string(),
          /**
           * True when the endpoint is the local stack's offline stand-in (CHAT_MODEL_OFFLINE),
           * which quotes retrieved sentences instead of writing answers, whatever `name` says.
           */
          offline: z.boolean(),
        }),
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

Every chat is a turn of a conversation, stored for its user: the stream starts with
\`event: conversation\` (its id, the turn's \`message_id\`, whether it was \`created\`).
\`conversation_id\` continues one of the user's conversations (another's answers 404): the
question is first rewritten from the conversation into a standalone one for retrieval, the
recent turns go into the prompt (within CHAT_HISTORY_TOKENS), and without \`file_id\` or
\`collection_id\` the conversation's scope is kept. A stream the client leaves is stored
with what was answered by then, marked \`incomplete\`.
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
          conversation_id: z.uuid().optional(),
          /** Only documents that match these (issuer, 文号, dates, type, in force). */
          filters: DocumentFilters.optional(),
        }),
      },
      stream: ChatMessage,
      // Over a daily limit (workers/chat/src/usage), a prompt or a body too long: before the
      // stream starts.
      errors: ['quota_exceeded', 'prompt_too_long'],
      events: {
        conversation: ChatConversation,
        sources: z.array(ChatSource),
        done: ChatDone,
        refusal: ChatRefusal,
        /**
         * Before the answer, when the request sent no `filters` and the question states some in
         * words ("只看杭州市2024年以后的文件"): the filters applied. Re-ask with `filters: {}` to
         * drop them.
         */
        filters: z.object({
          request_id: z.string(),
          filters: DocumentFilters,
          proposed: z.literal(true),
        }),
      },
    }),
    CreateChatCompletion: method({
      doc: `OpenAI-compatible chat (the Chat Completions protocol, streaming and not), grounded
in the knowledge base by the same rules as Chat. The last message is the question (a user
message); earlier user/assistant messages are the history (recent turns within
CHAT_HISTORY_TOKENS; a follow-up is rewritten to stand alone for retrieval); system and
developer messages are passed to the model as additional instructions after the service's own,
never replacing its grounding rules. \`model\` names the grounding: \`kbchat\` (every
collection the caller can read, similarity ≥ CHAT_MIN_SIMILARITY), \`kbchat-files:<id>,…\`
(those files, as Chat's \`file_id\`) or \`kbchat-collections:<id>,…\` (as
\`collection_id\`); any other is 404 \`model_not_found\`. The answer carries \`sources\` (extra
field, on the last chunk when streaming); a refusal is an ordinary assistant message (its text
in the question's language, \`finish_reason: "stop"\`) with \`kbchat_refusal\` saying why.
A failure is 502/503 problem JSON that also carries OpenAI's \`error\` object (as every
refusal of this route does), or, once a stream has started, a last line
\`data: {"error": {"message", "type", "code"}}\` without \`[DONE]\`. Tools, n > 1 and
non-text content are refused. Nothing is stored: the protocol is stateless, the client sends
the history.
@path(/v1/chat/completions) @handler(streamResponse) @credential(key)`,
      params: { body: ChatCompletionRequest },
      stream: ChatCompletionChunk,
      output: ChatCompletion,
      envelope: false,
      streamEnd: '[DONE]',
      errorProtocol: 'openai',
      errors: ['quota_exceeded', 'prompt_too_long', 'instructions_too_long'],
    }),
    ListModels: method({
      doc: `The grounding modes the OpenAI-compatible endpoint takes as \`model\`: \`kbchat\`.
(\`kbchat-files:<id>,…\` and \`kbchat-collections:<id>,…\` are not listed: knowledge's
collection list is not exposed over RPC.) @path(/v1/models) @credential(key)`,
      output: ModelList,
      envelope: false,
      errorProtocol: 'openai',
    }),
    PostMcp: method({
      doc: `The Model Context Protocol server (Streamable HTTP transport, stateless): JSON-RPC
messages in, JSON-RPC answers out (\`application/json\`; a batch of only notifications: 202).
Tools: \`search\` (passages with file, page, chunk id, heading path, similarity), \`ask\` (an
answer with its citations and sentence support, as the OpenAI-compatible door answers),
\`list_files\` and \`read_page\`, each under exactly the caller's access. Malformed messages are
JSON-RPC errors with a 4xx status; an unknown tool or invalid arguments, a tool result marked
\`isError\`. See docs/mcp.md. @path(/mcp) @credential(key)`,
      output: webResponse({
        200: {
          description:
            'The JSON-RPC answer (one, or a list for a batch). A tool that failed is a result marked `isError` with the problem in its structured content (over the daily limits: `quota_exceeded` with `resets_at`).',
          contentTypes: ['application/json'],
        },
        202: { description: 'Notifications (or responses) alone: accepted, no body.' },
        400: {
          description:
            'Not JSON, not JSON-RPC, a batch of more than 100 messages, or an unsupported protocol version: a JSON-RPC error.',
          contentTypes: ['application/json'],
          schema: JsonRpcErrorAnswer,
        },
        406: {
          description:
            'The client does not accept both `application/json` and `text/event-stream`: a JSON-RPC error.',
          contentTypes: ['application/json'],
          schema: JsonRpcErrorAnswer,
        },
        415: {
          description: 'The body is not `application/json`: a JSON-RPC error.',
          contentTypes: ['application/json'],
          schema: JsonRpcErrorAnswer,
        },
      }),
      // Over 64 KiB: refused unread by the route's body limit, before the transport.
      errors: ['body_too_large'],
    }),
    GetMcp: method({
      doc: `The transport's server-to-client event stream, which this stateless server does not
offer: 405 with a JSON-RPC error, as the protocol allows. @path(/mcp) @credential(key)`,
      output: webResponse({
        405: {
          description: 'Always: a JSON-RPC error; `Allow: POST`.',
          contentTypes: ['application/json'],
          schema: JsonRpcErrorAnswer,
          headers: { Allow: z.literal('POST') },
        },
      }),
    }),
    DeleteMcp: method({
      doc: `Ends an MCP session: this server keeps none, so 405 with a JSON-RPC error, as the
protocol allows. @path(/mcp) @credential(key)`,
      output: webResponse({
        405: {
          description: 'Always: a JSON-RPC error; `Allow: POST`.',
          contentTypes: ['application/json'],
          schema: JsonRpcErrorAnswer,
          headers: { Allow: z.literal('POST') },
        },
      }),
    }),
    GetConversations: method({
      doc: 'The caller’s conversations, most recently continued first, a page at a time.',
      params: paging,
      output: z.object({ items: z.array(Conversation), ...Page }),
    }),
    GetConversation: method({
      doc: 'One of the caller’s conversations with its turns, oldest first (another’s: 404).',
      params: { id: z.uuid() },
      output: Conversation.extend({ messages: z.array(ConversationMessage) }),
    }),
    GetConversationExport: method({
      doc: `One of the caller’s conversations as a record to keep (another’s: 404): every
question and answer with its time, the model, which sentences were found in the sources, and
each source's file, page and passage text (a passage deleted since: said so). \`format\` is
\`markdown\` (the web app prints the same record as PDF). Labels follow the conversation's
language; the file is named after its title. Times are in \`time_zone\` (an IANA name such as
\`Asia/Shanghai\`; the web app sends its reader's), else UTC, each with its offset
(\`2026-11-26 14:44:07 UTC+08:00\`) and the zone named at the top. @path(/conversation/export)`,
      params: {
        id: z.uuid(),
        format: z.enum(['markdown']).default('markdown'),
        time_zone: z
          .string()
          .max(64)
          .refine(isTimeZone, 'not a time zone')
          .optional()
          .describe(
            'The time zone to write the times in (IANA, e.g. `Asia/Shanghai`); UTC without it.',
          ),
      },
      output: fileDownload({ contentTypes: ['text/markdown'] }),
    }),
    PutConversation: method({
      doc: 'Renames one of the caller’s conversations.',
      params: { body: z.object({ id: z.uuid(), title: ConversationTitle }) },
      output: Conversation,
    }),
    DeleteConversation: method({
      doc: 'Deletes one of the caller’s conversations with its turns.',
      params: { id: z.uuid() },
    }),
    PutMessageFeedback: method({
      doc: `Marks an answer of the caller’s helpful or unhelpful, with an optional comment;
\`rating: null\` takes the mark back. An unhelpful answer (question, answer, sources, comment)
becomes readable to SUPER_ADMINs, who review them (GetUnhelpfulAnswers).`,
      params: {
        body: z.object({
          message_id: z.uuid(),
          rating: FeedbackRating.nullable(),
          comment: Text(2000).optional(),
        }),
      },
      output: z.object({ message_id: z.uuid(), feedback: Feedback.nullable() }),
    }),
    GetUnhelpfulAnswers: method({
      doc: `Answers users marked unhelpful, newest mark first, with their question; unresolved
only unless \`resolved=true\` is asked too. @role(SUPER_ADMIN)`,
      params: { ...paging, resolved: z.boolean().optional() },
      output: z.object({
        items: z.array(
          ConversationMessage.extend({
            conversation_id: z.uuid(),
            username: z.string(),
            /** When a SUPER_ADMIN marked it dealt with (null while open). */
            resolved_at: z.string().nullable().optional(),
            /** For a refusal: the passages closest to the question, most similar first. */
            closest_passages: z.array(ChatSource).optional(),
          }),
        ),
        ...Page,
      }),
    }),
    PutUnhelpfulResolved: method({
      doc: 'Marks an unhelpful answer dealt with, or open again. @role(SUPER_ADMIN)',
      params: { body: z.object({ message_id: z.uuid(), resolved: z.boolean() }) },
    }),
    GetAnswerSettings: method({
      doc: `How a collection's answers are given: chat's similarity threshold and the one a
question must reach to get an official answer as written (default 0.9). For its readers.`,
      params: { collection_id: z.uuid() },
      output: AnswerSettings,
    }),
    PutAnswerSettings: method({
      doc: 'Sets the official-answer threshold of a collection: its owners.',
      params: {
        body: z.object({
          collection_id: z.uuid(),
          official_threshold: z.number().min(0.5).max(1),
        }),
      },
      output: AnswerSettings,
    }),
    GetOfficialAnswers: method({
      doc: 'A collection’s official answers (标准口径), most recently changed first: for its readers.',
      params: { collection_id: z.uuid() },
      output: z.array(OfficialAnswer),
    }),
    PostOfficialAnswer: method({
      doc: `Writes (or, with \`id\`, changes) an official answer (标准口径) of a collection: its
owners. A question at least the collection's threshold similar to its question is answered with
it as written (\`mode: official\`), with no model call; a less similar one (from chat's
threshold on) gives it to the model first. Its citations are passages (chunk ids) the owner can
read; \`resolves\` marks gap-report questions it settles.`,
      params: { body: OfficialAnswerInput },
      output: OfficialAnswer,
    }),
    DeleteOfficialAnswer: method({
      doc: 'Removes an official answer: the owners of its collection.',
      params: { id: z.uuid() },
    }),
    GetGaps: method({
      doc: `The gap report of a collection, for its editors and owners: questions that were
refused (with the best similarity found), marked unhelpful, or answered with sentences not found
in the sources, grouped by similarity, largest group first, with the passages closest to them.
Open questions only unless \`resolved=true\`.`,
      params: { collection_id: z.uuid(), resolved: z.boolean().optional() },
      output: GapReport,
    }),
    GetGapsExport: method({
      doc: `The gap report as CSV (UTF-8 with a byte-order mark, for spreadsheet programs): one
row per group. @path(/gaps/export)`,
      params: { collection_id: z.uuid(), resolved: z.boolean().optional() },
      output: fileDownload({ contentTypes: ['text/csv'] }),
    }),
    PostGapsResolved: method({
      doc: 'Marks gap-report questions resolved (or open again): the collection’s editors and owners.',
      params: {
        body: z.object({
          ids: z.array(z.number().int().min(1)).min(1).max(500),
          resolved: z.boolean(),
        }),
      },
    }),
    GetUsage: method({
      doc: `The current user's usage: questions and tokens (embedding and generation) per day, per
API key and per collection, over a period (default: the last 30 days), and today's against the
daily limits.`,
      params: UsagePeriod,
      output: UsageReport,
    }),
    GetUsageAll: method({
      doc: 'Everyone’s usage over a period, per day, user and collection. @path(/usage_all) @role(SUPER_ADMIN)',
      params: UsagePeriod,
      output: UsageOverview,
    }),
    GetLimits: method({
      doc: 'The limits and audit settings in force. @role(SUPER_ADMIN)',
      output: UsageLimits,
    }),
    PutLimits: method({
      doc: `Sets the limits and audit settings: per user per day (tokens, questions), per
collection (bytes, files), per user over every collection (bytes stored; left out: unchanged),
whether questions are audited, how long audit records are kept.
@role(SUPER_ADMIN) @credential(login)`,
      params: { body: UsageLimitsInput },
      output: UsageLimits,
    }),
  },
});
