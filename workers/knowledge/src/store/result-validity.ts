import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Validity } from '#shared/contracts/document-metadata';

export type ResultValidity = z.output<typeof Validity>;

/**
 * The relations other files hold to a search result's file, as that file sees them
 * (`repealed_by`, `amended_by`, …), each naming the other file (id, name, 文号, title): what a
 * chat source needs to say "repealed by 〔…〕". A json array (empty when none) computed in the
 * search statement for the few results it returns, so telling validity costs no round trip.
 * A relation targets the file by id, or by its document number when the relating document
 * named it only by number (the same two ways validity.ts's rule reads). The policies show only
 * relations and files the caller can read.
 */
export function incomingRelations(fileId: SQL, docNumber: SQL): SQL<ResultValidity['relations']> {
  return sql`coalesce((
    select json_agg(json_build_object(
      'id', r.id,
      'relation', case r.relation when 'amends' then 'amended_by' when 'repeals' then 'repealed_by'
                  when 'replaces' then 'replaced_by' else 'implemented_by' end,
      'file_id', o.id, 'file_name', o.name, 'doc_number', o.doc_number, 'title', o.title,
      'origin', r.origin) order by r.id)
    from file_relations r join files o on o.id = r.file_id
    where r.file_id <> ${fileId}
      and (r.target_file_id = ${fileId}
        or (r.target_file_id is null and r.target_doc_number is not null
            and r.target_doc_number = ${docNumber}))), '[]'::json)`;
}
