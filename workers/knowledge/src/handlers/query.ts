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
  const config = knowledgeConfig(ctx.env);
  const fileIds = params.file_id;
  const { vectors } = await embedTexts(
    createModelClient(config.model),
    config.model,
    [params.text],
    {
      limits: { inputs: 1, tokens: Number.MAX_SAFE_INTEGER },
      columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
      signal: ctx.signal,
    },
  );
  return nearestChunks(knowledgeDb(ctx), vectors[0]!, { top: params.top, fileIds });
}
