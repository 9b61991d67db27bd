import { z } from 'zod';
import { clientAddressConfig } from '#shared/audit/client-address';
import { databaseConfig } from '#shared/config/database-config';
import { boolean, defineConfig, number, positiveInt } from '#shared/config/load-config';
import { modelConfig } from '#shared/config/model-config';
import { tokenVerificationConfig } from '#shared/config/token-config';
import { errorTextsConfig } from './answer/language';

const answerConfig = z
  .object({
    CHAT_MIN_SIMILARITY: number(0.5),
    CHAT_ECHO_PROMPT: boolean(true),
    CHAT_MAX_PROMPT_CHARS: positiveInt(4000),
    CHAT_MODEL_TIMEOUT_MS: positiveInt(60_000),
    CHAT_CONTEXT_CHARS: positiveInt(24_000),
    CHAT_FILES_TOP: positiveInt(30),
    CHAT_MESSAGES: errorTextsConfig,
    CHAT_NEUTRALISE_MARKUP: boolean(true),
    CHAT_HISTORY_TOKENS: positiveInt(2000),
    CHAT_HISTORY_TURNS: positiveInt(20),
  })
  .refine((env) => env.CHAT_MIN_SIMILARITY >= -1 && env.CHAT_MIN_SIMILARITY <= 1, {
    path: ['CHAT_MIN_SIMILARITY'],
    message: 'a cosine similarity, between -1 and 1',
  })
  // Knowledge's own limits (GetContext): a larger value would fail every scoped chat.
  .refine((env) => env.CHAT_CONTEXT_CHARS <= 2_000_000, {
    path: ['CHAT_CONTEXT_CHARS'],
    message: 'at most 2000000',
  })
  .refine((env) => env.CHAT_FILES_TOP <= 50, {
    path: ['CHAT_FILES_TOP'],
    message: 'at most 50',
  })
  .transform((env) => ({
    minSimilarity: env.CHAT_MIN_SIMILARITY,
    echoPrompt: env.CHAT_ECHO_PROMPT,
    maxPromptChars: env.CHAT_MAX_PROMPT_CHARS,
    modelTimeoutMs: env.CHAT_MODEL_TIMEOUT_MS,
    contextChars: env.CHAT_CONTEXT_CHARS,
    filesTop: env.CHAT_FILES_TOP,
    errorTexts: env.CHAT_MESSAGES,
    neutraliseMarkup: env.CHAT_NEUTRALISE_MARKUP,
    history: { tokens: env.CHAT_HISTORY_TOKENS, turns: env.CHAT_HISTORY_TURNS },
  }));

/**
 * Whether the model endpoint is the local stack's offline stand-in (dev/stack/offline-model.ts),
 * which quotes retrieved sentences instead of writing an answer. Told by a flag the local stack
 * sets, not guessed from CHAT_MODEL or MODEL_BASE_URL: the stand-in echoes whatever model name
 * it is asked for (CHAT_MODEL stays `gpt-4o-mini` locally), and a loopback base URL may just as
 * well be a real local model (Ollama).
 */
const offlineModelConfig = z
  .object({ CHAT_MODEL_OFFLINE: boolean(false) })
  .transform((env) => env.CHAT_MODEL_OFFLINE);

/** The chat module's one config loader. */
export const chatConfig = defineConfig({
  database: databaseConfig('CHAT_DATABASE_URL'),
  model: modelConfig,
  offlineModel: offlineModelConfig,
  verification: tokenVerificationConfig,
  answer: answerConfig,
  clientAddress: clientAddressConfig,
});

export type AnswerSettings = ReturnType<typeof chatConfig>['answer'];
