import { z } from 'zod';

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
