import { createModelClient } from '../../../../shared/model/client';
import { knowledgeConfig } from '../config';
import { knowledgeDb, type KnowledgeCall } from '../context';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { embedTexts } from '../ingest/embed';
import { nearestChunks } from '../store/files';

/** The chunks nearest to the text, by cosine similarity, highest first. */
export async function query(
  params: { text: string; top: number; file_id?: string[] },
  ctx: KnowledgeCall,
) {
  const vector = await embedQuestion(params.text, ctx);
  return nearestChunks(knowledgeDb(ctx), vector, { top: params.top, fileIds: params.file_id });
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
