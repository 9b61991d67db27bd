import { z } from 'zod';
import { ChatRefusal, ChatSource, OfficialGiven, SentenceSupport, Usage } from './chat-sources';
import { DocumentFilters } from './document-metadata';

/**
 * The wire objects of OpenAI's Chat Completions protocol, as the chat module speaks it
 * (`/modulechat/v1/chat/completions`, `/modulechat/v1/models`). Fields OpenAI clients commonly
 * send are accepted; unknown ones are ignored, as OpenAI clients send some of their own.
 */

/** At most this many messages in one request. */
export const MAX_MESSAGES = 100;
/** At most this many characters in one message (the question has CHAT_MAX_PROMPT_CHARS). */
export const MAX_MESSAGE_CHARS = 32_000;

const TextParts = z
  .array(z.object({ type: z.string(), text: z.string().optional() }))
  .min(1)
  .max(100)
  .refine(
    (parts) => parts.every((part) => part.type === 'text' && typeof part.text === 'string'),
    'only text parts ({"type":"text","text":…}) are supported',
  );

export const OpenAiMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant'], {
    error: 'must be system, developer, user or assistant (tools are not supported)',
  }),
  content: z.union([z.string().max(MAX_MESSAGE_CHARS), TextParts]),
  name: z.string().max(256).optional(),
});

const none = (what: string) => z.array(z.unknown()).max(0, `${what} are not supported`).nullish();

export const ChatCompletionRequest = z.object({
  /**
   * The grounding mode: `kbchat` (every collection the caller can read), `kbchat-files:<id>,…`
   * (only those files) or `kbchat-collections:<id>,…` (only those collections).
   */
  model: z.string().min(1).max(4200),
  messages: z.array(OpenAiMessage).min(1).max(MAX_MESSAGES),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().min(1).max(1, 'only n = 1 is supported').nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  seed: z.number().int().nullish(),
  user: z.string().max(256).nullish(),
  tools: none('tools'),
  functions: none('functions'),
  tool_choice: z.enum(['none', 'auto']).nullish(),
  response_format: z
    .object({ type: z.literal('text', { error: 'only text responses are supported' }) })
    .nullish(),
  /** This service's extension: the chat's document filters (issuer, 文号, dates, type, in force). */
  kbchat: z.object({ filters: DocumentFilters.optional() }).nullish(),
});

/** Why the answer is a refusal (the SSE chat's `error` code, and its `refusal` event). */
export const KbchatRefusal = ChatRefusal.partial({
  best_similarity: true,
  threshold: true,
  candidates: true,
}).extend({ code: z.string() });

const Extras = {
  /** Not OpenAI's: the passages the answer is grounded in (OpenAI clients ignore it). */
  sources: z.array(ChatSource),
  /** Not OpenAI's: each sentence of the answer checked against its sources (with `sources`). */
  support: z.array(SentenceSupport).optional(),
  /** Not OpenAI's: set when the answer is the service's refusal. */
  kbchat_refusal: KbchatRefusal.optional(),
  /**
   * Not OpenAI's: set when the answer is a collection's official answer (标准口径) given as
   * written, with no model (the SSE chat's `done` with `mode: official`).
   */
  kbchat_official: OfficialGiven.optional(),
};

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string(),
        refusal: z.null(),
      }),
      logprobs: z.null(),
      finish_reason: z.literal('stop'),
    }),
  ),
  usage: Usage,
  ...Extras,
});

export const ChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: z.literal('stop').nullable(),
    }),
  ),
  usage: Usage.nullish(),
  sources: Extras.sources.optional(),
  support: Extras.support,
  kbchat_refusal: Extras.kbchat_refusal,
  kbchat_official: Extras.kbchat_official,
});

export const ModelList = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal('model'),
      created: z.number().int(),
      owned_by: z.string(),
    }),
  ),
});
