import { createModelClient } from '../../../../shared/model/client';
import { knowledgeConfig } from '../config';
import { knowledgeDb, type KnowledgeCall } from '../context';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { embedTexts } from '../ingest/embed';
import { nearestChunks } from '../store/files';

/** The chunks nearest to the text, by cosine similarity, highest first. */
export async function query(
  params: {
    text: string;
    top: number;
    file_id?: string[];
    retrieve_limit?: number;
    similarity_threshold?: number;
  },
  ctx: KnowledgeCall,
) {
  const vector = await embedQuestion(params.text, ctx);
  // The original's names (its generated clients send them): the limit wins over `top`'s default.
  const top = params.retrieve_limit ?? params.top;
  const found = await nearestChunks(knowledgeDb(ctx), vector, { top, fileIds: params.file_id });
  const min = params.similarity_threshold;
  return min === undefined ? found : found.filter((r) => r.similarity >= min);
}

/** The question's embedding, padded to the column's width. */
export async function embedQuestion(text: string, ctx: KnowledgeCall): Promise<number[]> {
  const config = knowledgeConfig(ctx.env);
  const { vectors } = await embedTexts(createModelClient(config.model), config.model, [text], {
    limits: { inputs: 1, tokens: Number.MAX_SAFE_INTEGER },
    columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
    signal: ctx.signal,
  });
  return vectors[0]!;
}
