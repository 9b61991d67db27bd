import { z } from 'zod';
import { errorGroup } from './entry.ts';

/** Questions, conversations and the OpenAI-compatible door. */
export const chatErrors = errorGroup({
  prompt_too_long: {
    status: 413,
    en: 'The question is too long. Shorten it and ask again.',
    zh: '问题太长，请缩短后重新提问。',
  },
  instructions_too_long: {
    status: 413,
    en: 'The system messages are too long together.',
    zh: '系统消息合计过长。',
  },
  invalid_messages: {
    status: 400,
    en: 'The messages are not a conversation that can be answered.',
    zh: '这些消息无法构成可回答的对话。',
  },
  model_not_found: {
    status: 404,
    en: 'No such model.',
    zh: '没有这个模型。',
  },
  /** A daily limit of usage_limits reached (kbchat_quota): the problem says when it resets. */
  quota_exceeded: {
    status: 429,
    en: 'You have reached your daily limit of questions or tokens. It resets at midnight UTC.',
    zh: '您今天的提问次数或令牌用量已达上限，将于 UTC 零点（北京时间上午 8 点）重置。',
    // What workers/chat/src/usage/quota.ts puts in the problem (the OpenAPI documents say so).
    members: z.object({
      resets_at: z.iso.datetime().describe('When the daily limits reset: the next midnight UTC.'),
      limit: z
        .enum(['user_daily_questions', 'user_daily_tokens'])
        .optional()
        .describe('The daily limit reached.'),
      used: z
        .int()
        .nonnegative()
        .optional()
        .meta({ description: 'How much of it today has used.', example: 20 }),
      allowed: z.int().positive().optional().meta({ description: 'The limit.', example: 20 }),
    }),
    headers: {
      'Retry-After': z
        .int()
        .positive()
        .meta({ description: 'Seconds until the daily limits reset.', example: 5400 }),
    },
  },
});

/**
 * Why a question got no answer from the documents (the Chinese words, with no full stop, are
 * the original's refusal; its siblings follow it). They are answers, not failed requests: the
 * chat stream's `error` message carries the text in the question's language with this `code`
 * (status 200), and so does the OpenAI door's completion. CHAT_MESSAGES may reword them.
 */
export const refusalErrors = errorGroup({
  no_relevant_knowledge: {
    status: 200,
    en: 'Sorry, no relevant information was found, so no answer can be given.',
    zh: '非常抱歉，未能检索到相关信息，无法回答',
  },
  files_unavailable: {
    status: 200,
    en: 'Sorry, the chosen files are not available (deleted, or not processed yet), so no answer can be given.',
    zh: '非常抱歉，所选文件不可用（已删除或尚未处理完成），无法回答',
  },
  collections_unavailable: {
    status: 200,
    en: 'Sorry, the chosen collection is not available to you (deleted, or you are not a member), so no answer can be given.',
    zh: '非常抱歉，所选资料集不可用（已删除或您不是其成员），无法回答',
  },
});

/** An answer that broke off: the stream's `error` message, or the OpenAI door's failure. */
export const answerErrors = errorGroup({
  knowledge_unavailable: {
    status: 503,
    en: 'Sorry, the knowledge base is unavailable right now.',
    zh: '非常抱歉，知识库暂时不可用',
  },
  model_failed: {
    status: 502,
    en: 'Sorry, the answer could not be completed. Please try again.',
    zh: '非常抱歉，回答未能完成，请重试',
  },
});
