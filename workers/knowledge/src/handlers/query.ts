import { createModelClient } from '#shared/model/client';
import { knowledgeConfig } from '../config';
import { knowledgeDb, type KnowledgeCall } from '../call';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { embedTexts } from '../ingest/embed';
import { queryTerms } from '../ingest/search-terms';
import { searchChunks, type SearchMatch, type SearchMode } from '../store/search';
import { givenFilters, type SearchFilters } from '../store/search-filters';
import { smallReadableScope, requireReadable } from './collection-access';

/**
 * The chunks that best match the text in the mode asked (hybrid by default). The question is
 * embedded in every mode: each result's cosine similarity is what the chat threshold tests.
 */
export async function query(
  params: {
    text: string;
    top: number;
    file_id?: string[];
    collection_id?: string[];
    mode: SearchMode;
    retrieve_limit?: number;
    similarity_threshold?: number;
  } & Partial<SearchFilters>,
  ctx: KnowledgeCall,
) {
  const [vector, readableFileIds] = await Promise.all([
    embedQuestion(params.text, ctx),
    searchScope(ctx, params),
  ]);
  const found = await searchChunks(knowledgeDb(ctx), {
    mode: params.mode,
    // The original's name (its generated clients send it): the limit wins over `top`'s default.
    top: params.retrieve_limit ?? params.top,
    fileIds: params.file_id,
    collectionIds: params.collection_id,
    readableFileIds,
    vector,
    terms: queryTerms(params.text),
    filters: givenFilters(params),
  });
  const min = params.similarity_threshold;
  const results = (found as WithHeadingPath[]).map((r) => ({
    ...r,
    heading_path: r.heading_path ?? null,
  }));
  return min === undefined ? results : results.filter((r) => r.similarity >= min);
}

/** A result with its chunk's heading path, which the statement selects (chunks.heading_path). */
type WithHeadingPath = SearchMatch & { heading_path?: string | null };

/**
 * Checks the collections asked for; without any (and without files, which narrow the search
 * enough), the files the caller can read when they are a small scope, for the vector list's
 * filter. Looked up while the question is embedded: no round trip more before the answer.
 */
async function searchScope(
  ctx: KnowledgeCall,
  params: { file_id?: string[]; collection_id?: string[] },
): Promise<string[] | undefined> {
  if (params.collection_id) {
    await requireReadable(ctx, params.collection_id);
    return undefined;
  }
  return params.file_id ? undefined : smallReadableScope(ctx);
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
