import type OpenAI from 'openai';
import type { ModelSettings } from '../config/model-config';
import { AppError } from '../errors/app-error';
import { createModelClient } from './client';

export interface BatchLimits {
  /** At most this many inputs per request (OpenAI: 2,048). */
  inputs: number;
  /** At most about this many tokens per request, estimated generously. */
  tokens: number;
}

// Chinese text runs close to one token per character; English near four characters per token.
// Counting every code point as a token overestimates, which keeps batches under the limit.
const estimateTokens = (text: string) => [...text].length;

/** Groups texts into requests that respect the provider's input and token limits. */
export function planBatches(texts: readonly string[], limits: BatchLimits): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const text of texts) {
    const cost = estimateTokens(text);
    if (current.length > 0 && (current.length >= limits.inputs || tokens + cost > limits.tokens)) {
      batches.push(current);
      current = [];
      tokens = 0;
    }
    current.push(text);
    tokens += cost;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Embeds texts in as few requests as the limits allow; each distinct text once. The SDK
 * retries 429 and 5xx with backoff; what still fails is a 502. Vectors are zero-padded to the
 * column width: zeros add nothing to dot products or norms, so cosine similarity is unchanged.
 */
export async function embedTexts(
  client: OpenAI,
  model: ModelSettings,
  texts: readonly string[],
  options: {
    limits: BatchLimits;
    columnDimensions: number;
    signal?: AbortSignal;
    /** Told each request's `usage.prompt_tokens`, when the endpoint reports it (usage accounting). */
    onTokens?: (tokens: number) => void;
  },
): Promise<{ vectors: number[][]; requests: number }> {
  const distinct = [...new Set(texts)];
  const byText = new Map<string, number[]>();
  const batches = planBatches(distinct, options.limits);
  for (const batch of batches) {
    const vectors = await requestEmbeddings(client, model, batch, options.signal, options.onTokens);
    batch.forEach((text, i) => byText.set(text, pad(vectors[i]!, options.columnDimensions)));
  }
  return { vectors: texts.map((text) => byText.get(text)!), requests: batches.length };
}

/**
 * One text's vector (a question, a corrected chunk), padded to the column: one request, whatever
 * its length (a single input is never split).
 */
export async function embedOne(
  model: ModelSettings,
  text: string,
  options: {
    columnDimensions: number;
    signal?: AbortSignal;
    onTokens?: (tokens: number) => void;
  },
): Promise<number[]> {
  const { vectors } = await embedTexts(createModelClient(model), model, [text], {
    limits: { inputs: 1, tokens: Number.MAX_SAFE_INTEGER },
    ...options,
  });
  return vectors[0]!;
}

async function requestEmbeddings(
  client: OpenAI,
  model: ModelSettings,
  input: string[],
  signal: AbortSignal | undefined,
  onTokens?: (tokens: number) => void,
): Promise<number[][]> {
  let response;
  try {
    response = await client.embeddings.create(
      { model: model.embeddingModel, input, dimensions: model.embeddingDimensions },
      { signal },
    );
  } catch (err) {
    throw new AppError('model_unavailable', {
      detail: 'The embedding model endpoint failed.',
      cause: err,
    });
  }
  // What the endpoint says it used; nothing when it says nothing (never an estimate).
  const used = response.usage?.prompt_tokens;
  if (onTokens && typeof used === 'number') onTokens(used);
  const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  if (vectors.length !== input.length) {
    throw new AppError('model_unavailable', {
      detail: 'The embedding model answered a wrong count.',
    });
  }
  return vectors;
}

function pad(vector: number[], width: number): number[] {
  if (vector.length > width) {
    throw new AppError('configuration_invalid', {
      detail: `The embedding model returns ${vector.length} dimensions; the vector column holds ${width}.`,
    });
  }
  return vector.length === width
    ? vector
    : [...vector, ...new Array(width - vector.length).fill(0)];
}

/**
 * The name a vector's model is recorded by (`name@dimensions`): vectors are compared only with
 * vectors of the same one, a query's with the chunks' (a different model, or the same one at
 * other dimensions, makes vectors that do not compare).
 */
export function embeddingModelId(
  model: Pick<ModelSettings, 'embeddingModel' | 'embeddingDimensions'>,
): string {
  return `${model.embeddingModel}@${model.embeddingDimensions}`;
}
