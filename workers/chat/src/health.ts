import type OpenAI from 'openai';
import { AppError } from '#shared/errors/app-error';
import type { ModelSettings } from '#shared/config/model-config';

/** One real embedding call: the model endpoint answers with vectors of the configured size. */
export async function checkEmbeddings(client: OpenAI, settings: ModelSettings) {
  const started = Date.now();
  try {
    const result = await client.embeddings.create({
      model: settings.embeddingModel,
      input: 'health check',
      dimensions: settings.embeddingDimensions,
    });
    return {
      ok: true as const,
      latency_ms: Date.now() - started,
      dimensions: result.data[0]?.embedding.length ?? 0,
    };
  } catch (err) {
    throw new AppError(502, 'model_unavailable', 'The model endpoint is unavailable.', {
      cause: err,
    });
  }
}
