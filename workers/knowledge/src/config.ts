import { z } from 'zod';
import { clientAddressConfig } from '#shared/audit/client-address';
import { databaseConfig } from '#shared/config/database-config';
import { defineConfig, optionalString, optionalUrl, positiveInt } from '#shared/config/load-config';
import { modelConfig } from '#shared/config/model-config';
import { tokenVerificationConfig } from '#shared/config/token-config';
import { EMBEDDING_COLUMN_DIMENSIONS } from './db/schema';

const ingestConfig = z
  .object({
    MAX_UPLOAD_BYTES: positiveInt(20 * 1024 * 1024),
    MAX_PDF_PAGES: positiveInt(500),
    CHUNK_SIZE: positiveInt(500),
    CHUNK_OVERLAP: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().min(0).default(100),
    ),
    EMBEDDING_BATCH_TOKENS: positiveInt(200_000),
    EMBEDDING_BATCH_INPUTS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().min(1).max(2048).default(2048),
    ),
    INGEST_PAGES_PER_STEP: positiveInt(25),
    INGEST_CHUNKS_PER_STEP: positiveInt(200),
    INGEST_RETRY_LIMIT: positiveInt(5),
    INGEST_RETRY_DELAY_MS: positiveInt(2_000),
    INGEST_STALE_SECONDS: positiveInt(60),
    INGEST_MAX_REVIVALS: positiveInt(3),
    INGEST_INSERT_HOLD_MS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().min(0).max(10_000).default(0),
    ),
  })
  .refine((env) => env.CHUNK_OVERLAP < env.CHUNK_SIZE, {
    path: ['CHUNK_OVERLAP'],
    message: 'CHUNK_OVERLAP must be smaller than CHUNK_SIZE',
  })
  .transform((env) => ({
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    maxPages: env.MAX_PDF_PAGES,
    chunkSize: env.CHUNK_SIZE,
    chunkOverlap: env.CHUNK_OVERLAP,
    batchTokens: env.EMBEDDING_BATCH_TOKENS,
    batchInputs: env.EMBEDDING_BATCH_INPUTS,
    pagesPerStep: env.INGEST_PAGES_PER_STEP,
    chunksPerStep: env.INGEST_CHUNKS_PER_STEP,
    retryLimit: env.INGEST_RETRY_LIMIT,
    retryDelayMs: env.INGEST_RETRY_DELAY_MS,
    staleSeconds: env.INGEST_STALE_SECONDS,
    maxRevivals: env.INGEST_MAX_REVIVALS,
    insertHoldMs: env.INGEST_INSERT_HOLD_MS,
  }));

/** The model settings, refused when the embeddings would not fit the vector column. */
const knowledgeModelConfig = modelConfig.refine(
  (model) => model.embeddingDimensions <= EMBEDDING_COLUMN_DIMENSIONS,
  {
    path: ['EMBEDDING_DIMENSIONS'],
    message: `at most ${EMBEDDING_COLUMN_DIMENSIONS} (the vector column); smaller models are zero-padded`,
  },
);

/**
 * The text reader for scanned and garbled PDF pages (services/ocr): reached at OCR_URL (the
 * local service `npm run dev` starts, or any host running its image), or through the OCR
 * service binding (the Cloudflare Container worker, workers/ocr); neither, or OCR=off, turns
 * OCR off, and a PDF without a text layer is refused as before.
 */
const ocrConfig = z
  .object({
    OCR: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['on', 'off']).default('on')),
    OCR_URL: optionalUrl(),
    OCR_API_KEY: optionalString(),
    OCR_PAGES_PER_STEP: positiveInt(4),
    OCR_TIMEOUT_MS: positiveInt(120_000),
  })
  .transform((env) => ({
    enabled: env.OCR !== 'off',
    url: env.OCR_URL?.replace(/\/+$/, ''),
    apiKey: env.OCR_API_KEY,
    pagesPerStep: env.OCR_PAGES_PER_STEP,
    timeoutMs: env.OCR_TIMEOUT_MS,
  }));

/**
 * The re-index (src/reindex/): chunks embedded per workflow step (one embedding request with
 * the default EMBEDDING_BATCH_INPUTS), and a pause after each step, so that the model endpoint
 * and the database keep room for queries while the old vectors are replaced.
 */
const reindexConfig = z
  .object({
    REINDEX_BATCH_CHUNKS: positiveInt(100),
    REINDEX_PAUSE_MS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().min(0).max(60_000).default(100),
    ),
  })
  .transform((env) => ({ batchChunks: env.REINDEX_BATCH_CHUNKS, pauseMs: env.REINDEX_PAUSE_MS }));

/** The knowledge module's one config loader. */
export const knowledgeConfig = defineConfig({
  database: databaseConfig('KNOWLEDGE_DATABASE_URL'),
  verification: tokenVerificationConfig,
  model: knowledgeModelConfig,
  ingest: ingestConfig,
  ocr: ocrConfig,
  reindex: reindexConfig,
  clientAddress: clientAddressConfig,
});

export type OcrSettings = ReturnType<typeof knowledgeConfig>['ocr'];

export type IngestSettings = ReturnType<typeof knowledgeConfig>['ingest'];

export type ReindexSettings = ReturnType<typeof knowledgeConfig>['reindex'];
