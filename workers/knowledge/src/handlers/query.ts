import { knowledgeConfig } from '../config';
import { knowledgeDb, type KnowledgeCall } from '../call';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { embedOne, embeddingModelId } from '#shared/model/embed';
import { addEmbeddingTokens } from '#shared/service/call-usage';
import { queryTerms } from '../ingest/search-terms';
import { searchChunks, SMALL_SCOPE, type SearchMatch, type SearchMode } from '../store/search';
import {
  fileFilterCondition,
  filteredScopeQuery,
  givenFilters,
  type SearchFilters,
} from '../store/search-filters';
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
  const filters = givenFilters(params);
  const [vector, scope] = await Promise.all([
    embedQuestion(params.text, ctx),
    filters ? filteredScope(ctx, params, filters) : searchScope(ctx, params),
  ]);
  // No file meets the filters: nothing to search.
  if (scope === 'none') return [];
  const small = scope?.kind === 'filtered';
  const found = await searchChunks(knowledgeDb(ctx), {
    mode: params.mode,
    // The original's name (its generated clients send it): the limit wins over `top`'s default.
    top: params.retrieve_limit ?? params.top,
    // The few files that meet the filters are named, in place of the filters (filteredScopeQuery).
    fileIds: small ? scope.ids : params.file_id,
    collectionIds: params.collection_id,
    readableFileIds: scope?.kind === 'readable' ? scope.ids : undefined,
    vector,
    embeddingModel: embeddingModelId(knowledgeConfig(ctx.env).model),
    terms: queryTerms(params.text),
    ...(filters && !small ? { filters } : {}),
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
): Promise<Scope | undefined> {
  if (params.collection_id) {
    await requireReadable(ctx, params.collection_id);
    return undefined;
  }
  if (params.file_id) return undefined;
  const ids = await smallReadableScope(ctx);
  return ids ? { kind: 'readable', ids } : undefined;
}

type Scope = { kind: 'readable' | 'filtered'; ids: string[] };

/**
 * With document filters: the files that meet them (store/search-filters.ts
 * filteredScopeQuery), named when they are a small scope; `none` when no file does; undefined
 * when there are more (the statement then filters by itself). Also looked up while the
 * question is embedded.
 */
async function filteredScope(
  ctx: KnowledgeCall,
  params: { file_id?: string[]; collection_id?: string[] },
  filters: SearchFilters,
): Promise<Scope | 'none' | undefined> {
  if (params.collection_id) await requireReadable(ctx, params.collection_id);
  const kdb = knowledgeDb(ctx);
  const { rows } = await kdb.run(
    kdb.db.execute<{ files: number; ids: string[] | null }>(
      filteredScopeQuery(fileFilterCondition(filters)!, SMALL_SCOPE, {
        fileIds: params.file_id,
        collectionIds: params.collection_id,
      }),
    ),
  );
  const found = rows[0];
  if (!found || Number(found.files) === 0) return 'none';
  return found.ids ? { kind: 'filtered', ids: found.ids } : undefined;
}

/** The question's embedding, padded to the column's width. */
export async function embedQuestion(text: string, ctx: KnowledgeCall): Promise<number[]> {
  const config = knowledgeConfig(ctx.env);
  return embedOne(config.model, text, {
    columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
    signal: ctx.signal,
    // Told back to an RPC caller (chat), which counts them as its user's usage.
    onTokens: (tokens) => addEmbeddingTokens(ctx, tokens),
  });
}
