import { createModelClient } from '../../../../shared/model/client';
import { knowledgeConfig } from '../config';
import { knowledgeDb, type KnowledgeCall } from '../context';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { embedTexts } from '../ingest/embed';
import { queryTerms } from '../ingest/search-terms';
import { searchChunks, type SearchMode } from '../store/search';

/**
 * The chunks that best match the text in the mode asked (hybrid by default). The question is
 * embedded in every mode: each result's cosine similarity is what the chat threshold tests.
 */
export async function query(
  params: { text: string; top: number; file_id?: string[]; mode: SearchMode },
  ctx: KnowledgeCall,
) {
  const config = knowledgeConfig(ctx.env);
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
  return searchChunks(knowledgeDb(ctx), {
    mode: params.mode,
    top: params.top,
    fileIds: params.file_id,
    vector: vectors[0]!,
    terms: queryTerms(params.text),
  });
}
