import { z } from 'zod';
import { enumOf } from '../service/enum';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * Several ids joined by commas, as the original's web client sends file ids. An empty value
 * means "no filter"; a value that lists no id at all (`,,,`) is refused rather than silently
 * read as no filter. Parsed to the distinct ids (lower case), or undefined for no filter.
 */
function idList(kind: 'file' | 'collection') {
  return z
    .string()
    .max(4000)
    .regex(
      new RegExp(`^\\s*(?:${UUID})?\\s*(?:,\\s*(?:${UUID})?\\s*)*$`),
      `not ${kind} ids joined by commas`,
    )
    .refine((value) => value.trim() === '' || idsOf(value).length > 0, `lists no ${kind} id`)
    .transform((value) => {
      const ids = idsOf(value);
      return ids.length > 0 ? ids : undefined;
    })
    .describe(`${kind === 'file' ? 'File' : 'Collection'} ids joined by commas, e.g. \`id1,id2\`.`);
}

export const FileIds = idList('file');
export const CollectionIds = idList('collection');

function idsOf(value: string): string[] {
  const parts = value.split(',').map((part) => part.trim().toLowerCase());
  return [...new Set(parts.filter(Boolean))];
}

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

/** Knowledge's health: also that its document reader (the ingestion's parser) answers. */
export const KnowledgeHealth = ModuleHealth.extend({
  reader: z.object({ ok: z.literal(true), latency_ms: z.number() }),
});

/**
 * Where a page's text came from: its text layer, its text layer with font-map faults repaired,
 * or OCR of a scanned page (to be checked against the original).
 */
/**
 * A page of a document, or of a list: from 1, and at most what a Postgres integer holds, so that
 * a larger number is a 400 here rather than an overflow in the statement that reads it.
 */
export const PageNumber = z.number().int().min(1).max(2_147_483_647);

export const PageSource = enumOf(['text_layer', 'repaired', 'ocr']);
