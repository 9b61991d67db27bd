/**
 * Width of every vector column (knowledge's chunks, chat's official and gap questions): one
 * number, since a question's embedding is compared with all of them. Embedding models with fewer
 * dimensions are zero-padded to it (which keeps cosine similarity exact); models with more are a
 * configuration error.
 */
export const EMBEDDING_COLUMN_DIMENSIONS = 1536;
