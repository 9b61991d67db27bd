import { z } from 'zod';
import { optionalString, optionalUrl, positiveInt } from './load-config';

export interface ModelSettings {
  /** OpenAI-compatible base URL (…/v1); the SDK's default (OpenAI) when unset. */
  baseUrl: string | undefined;
  apiKey: string;
  embeddingModel: string;
  embeddingDimensions: number;
  chatModel: string;
}

/** The model provider settings, as the spec lists them. */
export const modelConfig = z
  .object({
    MODEL_BASE_URL: optionalUrl(),
    MODEL_API_KEY: optionalString(),
    OPENAI_API_KEY: optionalString(),
    EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
    EMBEDDING_DIMENSIONS: positiveInt(1536),
    CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  })
  .transform((env, ctx): ModelSettings => {
    // The spec: an empty provider token falls back to the provider's own variable.
    const apiKey = env.MODEL_API_KEY ?? env.OPENAI_API_KEY;
    if (!apiKey) {
      ctx.addIssue({
        code: 'custom',
        path: ['MODEL_API_KEY'],
        message: 'set MODEL_API_KEY or OPENAI_API_KEY',
      });
      return z.NEVER;
    }
    return {
      baseUrl: env.MODEL_BASE_URL,
      apiKey,
      embeddingModel: env.EMBEDDING_MODEL,
      embeddingDimensions: env.EMBEDDING_DIMENSIONS,
      chatModel: env.CHAT_MODEL,
    };
  });
