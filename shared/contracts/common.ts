import { z } from 'zod';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Several file ids joined by commas, as the original's web client sends them (empty parts allowed). */
export const FileIds = z
  .string()
  .max(4000)
  .regex(
    new RegExp(`^\\s*(?:${UUID})?\\s*(?:,\\s*(?:${UUID})?\\s*)*$`),
    'not file ids joined by commas',
  )
  .describe('File ids joined by commas, e.g. `id1,id2`.');

/** The database part of a module's health answer. */
export const DatabaseHealth = z.object({
  ok: z.literal(true),
  latency_ms: z.number(),
  server_version: z.string(),
  pgvector: z.string().nullable(),
});

export const ModuleHealth = z.object({
  module: z.string(),
  database: DatabaseHealth,
});
