import type { z } from 'zod';
import type { OfficialCitation } from '#shared/contracts/answer-upkeep';
import { embedOne, embeddingModelId } from '#shared/model/embed';
import type { ModelSettings } from '#shared/config/model-config';
import { chatDb, type ChatCall } from '../call';
import type { chatConfig } from '../config';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { nearestOfficialAnswers, staleOfficialAnswers } from '../store/official-answers';
import { reembedStaleInBackground } from './reembed';
import type { UsageMeter } from '../usage/meter';

type Citation = z.output<typeof OfficialCitation>;

/** The official answer (标准口径) nearest to a question, as chat uses it. */
export interface OfficialMatch {
  id: string;
  collectionId: string;
  question: string;
  answer: string;
  citations: Citation[];
  similarity: number;
  /**
   * `direct`: at least its collection's threshold: given as written, no model call.
   * `context`: from chat's threshold on: given to the model as the first context item.
   */
  use: 'direct' | 'context';
}

/** What a search of official answers found: a match, or none worth using. */
export type OfficialLookup = Promise<OfficialMatch | undefined>;

/** A question's embedding, as knowledge embeds a query (the plain text), padded to the column. */
export async function embedQuestion(
  model: ModelSettings,
  question: string,
  signal?: AbortSignal,
  meter?: UsageMeter,
): Promise<number[]> {
  return embedOne(model, question, {
    columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
    signal,
    onTokens: (tokens) => meter?.addEmbedding(tokens),
  });
}

/**
 * Starts looking for the official answer nearest to `question` among the collections searched
 * (those named, else every one the caller reads: the policies decide), made by the configured
 * embedding model. It runs beside knowledge's retrieval (which embeds the question for itself),
 * never before it. A failure is logged and counts as no match: official
 * answers add to chat, they never take it down.
 */
export function startOfficialMatch(
  ctx: ChatCall,
  config: ReturnType<typeof chatConfig>,
  question: string,
  collectionIds: string[] | undefined,
  meter?: UsageMeter,
): OfficialLookup {
  const lookup = (async () => {
    const { batch, db } = chatDb(ctx);
    const model = embeddingModelId(config.model);
    // Nothing before the embedding: an official answer's latency is the embedding and one
    // round trip. (A check for "any official answers here?" first would spare most chats this
    // second embedding of the question, at one more round trip on the official path: measured
    // 37.6 ms over the floor with it, bench/official.ts.)
    const embedding = await embedQuestion(config.model, question, ctx.signal, meter);
    const [nearest, stale] = await batch([
      nearestOfficialAnswers(db, embedding, model, collectionIds),
      // Any of another model here (after a change of model): embedded again after the answer.
      staleOfficialAnswers(db, model, collectionIds, 1),
    ]);
    if (stale.length > 0) reembedStaleInBackground(ctx, config, collectionIds, model);
    return chooseMatch(nearest, config.answer.minSimilarity);
  })();
  return lookup.catch((err: unknown) => {
    ctx.log.warn('official answers not searched', { error: String(err) });
    return undefined;
  });
}

interface Candidate {
  id: string;
  collectionId: string;
  question: string;
  answer: string;
  citations: unknown;
  similarity: number;
  threshold: number;
}

/**
 * The nearest candidate that reaches its own collection's threshold is given as written;
 * otherwise the nearest one, when it reaches chat's threshold, goes to the model first.
 */
export function chooseMatch(
  candidates: readonly Candidate[],
  minSimilarity: number,
): OfficialMatch | undefined {
  const sorted = [...candidates].sort((a, b) => b.similarity - a.similarity);
  const direct = sorted.find((candidate) => candidate.similarity >= candidate.threshold);
  const chosen = direct ?? sorted[0];
  if (!chosen || (!direct && chosen.similarity < minSimilarity)) return undefined;
  return {
    id: chosen.id,
    collectionId: chosen.collectionId,
    question: chosen.question,
    answer: chosen.answer,
    citations: (chosen.citations as Citation[] | null) ?? [],
    similarity: chosen.similarity,
    use: direct ? 'direct' : 'context',
  };
}
