import { z } from 'zod';
import { boolean, defineConfig, number, positiveInt } from '../../../shared/config/load-config';
import { modelConfig } from '../../../shared/config/model-config';
import { tokenVerificationConfig } from '../../../shared/config/token-config';

const answerConfig = z
  .object({
    CHAT_MIN_SIMILARITY: number(0.5),
    CHAT_ECHO_PROMPT: boolean(true),
    CHAT_MAX_PROMPT_CHARS: positiveInt(4000),
    CHAT_MODEL_TIMEOUT_MS: positiveInt(60_000),
  })
  .refine((env) => env.CHAT_MIN_SIMILARITY >= -1 && env.CHAT_MIN_SIMILARITY <= 1, {
    path: ['CHAT_MIN_SIMILARITY'],
    message: 'a cosine similarity, between -1 and 1',
  })
  .transform((env) => ({
    minSimilarity: env.CHAT_MIN_SIMILARITY,
    echoPrompt: env.CHAT_ECHO_PROMPT,
    maxPromptChars: env.CHAT_MAX_PROMPT_CHARS,
    modelTimeoutMs: env.CHAT_MODEL_TIMEOUT_MS,
  }));

/** The chat module's one config loader. */
export const chatConfig = defineConfig({
  model: modelConfig,
  verification: tokenVerificationConfig,
  answer: answerConfig,
});

export type AnswerSettings = ReturnType<typeof chatConfig>['answer'];
