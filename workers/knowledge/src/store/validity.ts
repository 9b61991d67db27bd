import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Whether a document still holds, as one SQL expression over a files row: the one rule the
 * files' answers (validity.status), search (ranking, the `in_force` filter) and chat's
 * sources all use.
 *
 * - `repealed`: a readable file repeals or replaces it, naming it as a file of the knowledge
 *   base or by its document number (文号);
 * - `amended`: a readable file amends it (the rest of it holds);
 * - `expired`: its expiry date is past;
 * - `in_force` otherwise.
 *
 * Relations are file_relations rows; their read policy shows only those of files the caller
 * can read, so a repeal by a document someone cannot read does not change what they see.
 */
export type ValidityStatusName = 'in_force' | 'amended' | 'repealed' | 'expired';

export function validityStatus(file: {
  id: AnyColumn | SQL;
  docNumber: AnyColumn | SQL;
  expiresOn: AnyColumn | SQL;
}): SQL<ValidityStatusName> {
  const related = (kinds: string) => sql`exists (
    select 1 from file_relations r
    where r.relation in (${sql.raw(kinds)})
      and r.file_id <> ${file.id}
      and (r.target_file_id = ${file.id}
        or (r.target_file_id is null and r.target_doc_number is not null
            and r.target_doc_number = ${file.docNumber})))`;
  return sql<ValidityStatusName>`(case
    when ${related(`'repeals', 'replaces'`)} then 'repealed'
    when ${related(`'amends'`)} then 'amended'
    when ${file.expiresOn} < current_date then 'expired'
    else 'in_force' end)`;
}

/** Statuses under which a document's rules are still to be applied (`in_force=true`). */
export const HOLDING_STATUSES: readonly ValidityStatusName[] = ['in_force', 'amended'];
