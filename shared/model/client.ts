import OpenAI from 'openai';
import type { ModelSettings } from '../config/model-config';

/** The one way a worker reaches a model: the openai SDK against any compatible endpoint. */
export function createModelClient(settings: ModelSettings, timeoutMs = 60_000): OpenAI {
  return new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl,
    timeout: timeoutMs,
    maxRetries: 2,
  });
}
