import type { z } from 'zod';
import type { ChatSource } from '#shared/contracts/chat';
import { embedOne, embeddingModelId } from '#shared/model/embed';
import { chatDb, type ChatCall } from '../call';
import { chatConfig } from '../config';
import { EMBEDDING_COLUMN_DIMENSIONS, type GapKindName } from '../db/schema';
import type { TurnOutcome } from '../answer/turn';
import * as store from '../store/gaps';

type Source = z.output<typeof ChatSource>;

/** Knowledge's built-in collection, every user's: where a question of no collection is filed. */
export const SHARED_COLLECTION_ID = '00000000-0000-0000-0000-000000000000';

export interface Gap {
  kind: GapKindName;
  bestSimilarity: number | null;
  /** The passages closest to the question, most similar first. */
  closest: Source[];
}

const best = (sources: readonly Source[]) => {
  const similarities = sources.map((s) => s.similarity).filter((s): s is number => s !== null);
  return similarities.length > 0 ? Math.max(...similarities) : null;
};

/**
 * Whether a finished turn belongs in the gap report: refused for lack of relevant knowledge
 * (with the refusal's best similarity and candidates), or complete with sentences not found in
 * its sources. Other endings (failures, a client that went away) say nothing of the knowledge.
 */
export function gapOfTurn(outcome: TurnOutcome): Gap | undefined {
  if (outcome.status === 'refused' && outcome.code === 'no_relevant_knowledge') {
    return {
      kind: 'refused',
      bestSimilarity: outcome.refusal?.best_similarity ?? null,
      closest: outcome.refusal?.candidates ?? [],
    };
  }
  if (outcome.status === 'complete' && outcome.support?.some((s) => !s.supported)) {
    return { kind: 'unsupported', bestSimilarity: best(outcome.sources), closest: outcome.sources };
  }
  return undefined;
}

/** An unhelpful mark's entry: the turn's sources are what the user found wanting. */
export const unhelpfulGap = (sources: Source[]): Gap => ({
  kind: 'unhelpful',
  bestSimilarity: best(sources),
  closest: sources,
});

/**
 * The collections a question is filed under: the ones the chat was limited to, else those of
 * the passages involved (a chat limited to files: theirs), else the shared collection. The
 * store keeps only those the asker reads.
 */
export function gapCollections(scope: string[] | null, closest: readonly Source[]): string[] {
  if (scope && scope.length > 0) return [...new Set(scope)];
  const found = [...new Set(closest.map((s) => s.collection_id).filter(Boolean))];
  return found.length > 0 ? found : [SHARED_COLLECTION_ID];
}

/**
 * Files a question in the gap report: one embedding call, one insert. Runs after the answer
 * (waitUntil) and never throws: a lost gap entry is logged, and the user has been answered.
 */
export async function recordGap(
  ctx: ChatCall,
  entry: Gap & { messageId: string; question: string; scope: string[] | null },
): Promise<void> {
  try {
    const config = chatConfig(ctx.env);
    const { run, db } = chatDb(ctx);
    const wanted = gapCollections(entry.scope, entry.closest);
    const { rows } = await run(store.readableOf(db, wanted));
    const collectionIds = rows.map((row) => row.id);
    if (collectionIds.length === 0) return;
    const embedding = await embedOne(config.model, entry.question, {
      columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
    });
    await run(
      store.insertGap(db, {
        collectionIds,
        kind: entry.kind,
        question: entry.question,
        messageId: entry.messageId,
        bestSimilarity: entry.bestSimilarity,
        closest: entry.closest.map(({ citation: _citation, ...passage }) => passage),
        embedding,
        embeddingModel: embeddingModelId(config.model),
      }),
    );
  } catch (err) {
    ctx.log.error('gap question not recorded', {
      kind: entry.kind,
      message_id: entry.messageId,
      error: String(err),
    });
  }
}
