import { eq, sql, type SQL } from 'drizzle-orm';
import { files } from '../db/schema';
import type { Queries } from './files';

/** The fields a document says of itself, in the files row's terms. */
export interface MetadataValues {
  title?: string | null;
  docNumber?: string | null;
  issuers?: string[];
  issuedOn?: string | null;
  effectiveOn?: string | null;
  expiresOn?: string | null;
  docType?: string | null;
}

/** The contract's field names (metadata_origin's keys) and the row's. */
export const METADATA_COLUMNS = {
  title: 'title',
  doc_number: 'docNumber',
  issuers: 'issuers',
  issued_on: 'issuedOn',
  effective_on: 'effectiveOn',
  expires_on: 'expiresOn',
  doc_type: 'docType',
} as const satisfies Record<string, keyof MetadataValues>;

type ContractField = keyof typeof METADATA_COLUMNS;

const hasValue = (value: unknown) =>
  value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);

/**
 * What the ingestion extracted, stored field by field except where a person set the field
 * (metadata_origin says `person`): that value stays, as does its mark. Decided in the
 * statement itself, so a correction saved while the file is ingested is never lost.
 */
export function storeExtractedMetadata(
  db: Queries,
  fileId: string,
  values: Required<MetadataValues>,
) {
  const kept = (field: ContractField, column: SQL, value: SQL) =>
    sql`case when ${files.metadataOrigin} ->> ${field} = 'person' then ${column} else ${value} end`;
  const extracted: Record<string, 'extracted'> = {};
  for (const [field, key] of Object.entries(METADATA_COLUMNS)) {
    if (hasValue(values[key])) extracted[field] = 'extracted';
  }
  return db
    .update(files)
    .set({
      title: kept('title', sql`${files.title}`, sql`${values.title}`),
      docNumber: kept('doc_number', sql`${files.docNumber}`, sql`${values.docNumber}`),
      issuers: kept('issuers', sql`${files.issuers}`, textArray(values.issuers)),
      issuedOn: kept('issued_on', sql`${files.issuedOn}`, sql`${values.issuedOn}::date`),
      effectiveOn: kept(
        'effective_on',
        sql`${files.effectiveOn}`,
        sql`${values.effectiveOn}::date`,
      ),
      expiresOn: kept('expires_on', sql`${files.expiresOn}`, sql`${values.expiresOn}::date`),
      docType: kept('doc_type', sql`${files.docType}`, sql`${values.docType}`),
      // Extracted marks for the fields found, then every person's mark over them.
      metadataOrigin: sql`${JSON.stringify(extracted)}::jsonb || coalesce((
        select jsonb_object_agg(key, value) from jsonb_each(${files.metadataOrigin})
        where value = '"person"'::jsonb), '{}'::jsonb)`,
    })
    .where(eq(files.id, fileId));
}

/** A text[] literal of bound values (an array bound as one parameter differs by driver). */
const textArray = (items: readonly string[]) =>
  items.length === 0
    ? sql`'{}'::text[]`
    : sql`array[${sql.join(
        items.map((item) => sql`${item}`),
        sql`, `,
      )}]::text[]`;

/**
 * A person's correction: the fields given change and are marked `person` (a field cleared
 * keeps the mark too, so the next ingest does not put back what the person took away).
 */
export function correctMetadata(
  db: Queries,
  fileId: string,
  values: MetadataValues,
  fields: readonly ContractField[],
) {
  const marks = Object.fromEntries(fields.map((field) => [field, 'person']));
  return db
    .update(files)
    .set({
      ...values,
      metadataOrigin: sql`${files.metadataOrigin} || ${JSON.stringify(marks)}::jsonb`,
    })
    .where(eq(files.id, fileId))
    .returning();
}
