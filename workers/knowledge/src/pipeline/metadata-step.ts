import { ingestDb } from '#shared/db/request-db';
import { knowledgeConfig } from '../config';
import * as schema from '../db/schema';
import { detectRelations, extractDocumentMetadata } from '../ingest/document-metadata';
import { storeExtractedMetadata } from '../store/document-metadata';
import { fileForIngest, pagesOf, runAll } from '../store/ingest';
import { replaceExtractedRelations } from '../store/relations';
import { FileGone, type StepContext } from './steps';

/**
 * The ingest step after the text is stored: what the document says of itself (its title,
 * 文号, issuers, dates, type) and the documents it repeals, replaces, amends or implements,
 * from its pages' text (ingest/document-metadata/). Stored in one transaction: the fields a
 * person set stay as they are, and the relations found replace those found before (a
 * person's stay). Running it again gives the same rows.
 *
 * Its own file, beside steps.ts, so that it shares nothing but the step's context with the
 * steps that read and chunk. A failure is retried by the workflow like any step's.
 */
export async function readDocumentMetadata(ctx: StepContext, fileId: string) {
  // Ingestion acts for nobody in particular: its statements may touch this file's rows only.
  const kdb = ingestDb(knowledgeConfig(ctx.env).database, schema, fileId);
  const [file] = await kdb.run(fileForIngest(kdb.db, fileId));
  if (!file) throw new FileGone();
  const pages = (await kdb.run(pagesOf(kdb.db, fileId))).map((row) => row.text);
  const found = extractDocumentMetadata(pages);
  const relations = detectRelations(pages);
  await runAll(kdb, [
    storeExtractedMetadata(kdb.db, fileId, {
      title: found.title,
      docNumber: found.doc_number,
      issuers: found.issuers,
      issuedOn: found.issued_on,
      effectiveOn: found.effective_on,
      expiresOn: found.expires_on,
      docType: found.doc_type,
    }),
    ...replaceExtractedRelations(kdb.db, fileId, relations),
  ]);
  const fields = Object.entries(found).filter(
    ([, v]) => v !== null && !(Array.isArray(v) && v.length === 0),
  );
  ctx.log.info('document metadata read', {
    fields: fields.map(([key]) => key).join(','),
    relations: relations.length,
  });
  return { fields: fields.length, relations: relations.length };
}
