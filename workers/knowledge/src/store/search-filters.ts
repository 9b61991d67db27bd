import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { DocumentFilters } from '#shared/contracts/document-metadata';
import { HOLDING_STATUSES, validityStatus } from './validity';

export type SearchFilters = z.output<typeof DocumentFilters>;

const FILTER_KEYS = [
  'issuer',
  'doc_number',
  'doc_type',
  'issued_from',
  'issued_to',
  'effective_from',
  'effective_to',
  'in_force',
] as const satisfies readonly (keyof SearchFilters)[];

/** The filters actually given (undefined ones dropped), or undefined when none is. */
export function givenFilters(
  filters: Partial<SearchFilters> | undefined,
): SearchFilters | undefined {
  if (!filters) return undefined;
  const given: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) if (filters[key] !== undefined) given[key] = filters[key];
  return Object.keys(given).length > 0 ? (given as SearchFilters) : undefined;
}

/**
 * A document number as ingest stores it: its year's brackets as 〔〕, however they were typed
 * (`[2025]`, `［2025］`, `(2025)`, `【2025】`), without spaces. Users rarely have 〔〕 on their
 * keyboard; an exact match on the stored form would otherwise never find what they typed.
 */
export function normaliseDocNumber(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .replace(/[[(（【〔]\s*(\d{4})\s*[\])）】〕]/g, '〔$1〕');
}

/**
 * The condition a files row (alias `f`) must meet for the filters, or undefined for none. All
 * given filters must hold; dates are inclusive; a document without the date asked about does
 * not match a range on it (nothing says it falls inside).
 */
export function fileFilterCondition(filters: SearchFilters | undefined): SQL | undefined {
  const given = givenFilters(filters);
  if (!given) return undefined;
  const parts: SQL[] = [];
  // Containment over each issuer: `杭州` matches `杭州市人民政府`. strpos, not LIKE, so that a
  // `%` or `_` the user typed is a character, not a pattern.
  if (given.issuer !== undefined) {
    parts.push(
      sql`exists (select 1 from unnest(f.issuers) i where strpos(i, ${given.issuer}) > 0)`,
    );
  }
  if (given.doc_number !== undefined) {
    parts.push(sql`f.doc_number = ${normaliseDocNumber(given.doc_number)}`);
  }
  if (given.doc_type !== undefined) parts.push(sql`f.doc_type = ${given.doc_type}`);
  if (given.issued_from !== undefined) parts.push(sql`f.issued_on >= ${given.issued_from}::date`);
  if (given.issued_to !== undefined) parts.push(sql`f.issued_on <= ${given.issued_to}::date`);
  if (given.effective_from !== undefined) {
    parts.push(sql`f.effective_on >= ${given.effective_from}::date`);
  }
  if (given.effective_to !== undefined) {
    parts.push(sql`f.effective_on <= ${given.effective_to}::date`);
  }
  if (given.in_force !== undefined) {
    // The one validity rule (validity.ts); `in_force=false` asks for the documents no longer
    // in force (repealed, replaced or expired).
    const status = validityStatus({
      id: sql`f.id`,
      docNumber: sql`f.doc_number`,
      expiresOn: sql`f.expires_on`,
    });
    const holding = sql.join(
      HOLDING_STATUSES.map((s) => sql`${s}`),
      sql`, `,
    );
    parts.push(
      given.in_force ? sql`${status} in (${holding})` : sql`${status} not in (${holding})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/**
 * The files that meet the filters, counted, and named when they are a small scope (the limits of
 * search.ts's SMALL_SCOPE): `{files, chunks, ids}`, `ids` null when there are more. The query
 * handler reads it while the question is embedded (no wait added) and then searches:
 *
 * - nothing matches: no search at all;
 * - a small scope: those files named, as a small readable scope is, so that the planner reads
 *   their chunks through the file-id index and sorts them exactly (recall 1);
 * - more: the filter inside the statement (filteredFileIds), a per-row filter on the HNSW scan.
 *
 * Measured in docs/measurements/2026-11-26-filters.md: with the filter inside the statement
 * alone, the planner (which cannot see how many files the array holds) read every matching
 * chunk by the file-id index and sorted them all, 6× slower than unfiltered for a filter that
 * kept 70 % of 10,000 chunks.
 */
export function filteredScopeQuery(
  condition: SQL,
  limits: { chunks: number; files: number },
  within: { fileIds?: readonly string[]; collectionIds?: readonly string[] },
): SQL {
  const inIds = (column: SQL, ids: readonly string[] | undefined) =>
    ids
      ? sql` and ${column} in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql``;
  return sql`
    select count(*)::int as files, coalesce(sum(chunks), 0)::int as chunks,
           case when count(*) <= ${limits.files} and coalesce(sum(chunks), 0) <= ${limits.chunks}
                then array_agg(id) end as ids
    from (
      select f.id, f.chunks from files f
      where f.status = 'ready' and f.chunks > 0 and ${condition}${inIds(sql`f.id`, within.fileIds)}${inIds(sql`f.collection_id`, within.collectionIds)}
      limit ${limits.files + 1}
    ) matching`;
}

/**
 * The ids of the files that do not meet the filters (`(condition) is not true`: a file whose
 * date is missing does not meet a range on it), for the vector list's filter: `file_id <> all`
 * this array is how the statement's `ready` filter is written too, and for the same reason. The
 * planner estimates it as passing nearly every row and cannot serve it from the file-id index,
 * so the vector list stays an HNSW scan, filtered row by row, with iterative scans finding more
 * rows while too few pass. Written as `file_id = any(matching)`, it was estimated to pass few
 * rows, and the planner read every matching chunk (by the file-id index, or the whole table)
 * and sorted them: up to 10× slower than unfiltered in the measurements.
 */
export function unmatchedFileIds(condition: SQL): SQL {
  return sql`array(select f.id from files f where (${condition}) is not true)`;
}

/**
 * The ids of the files the caller can read (the files policy applies) that meet the filters,
 * as one uuid[] expression: an uncorrelated sub-select, so Postgres computes it once per
 * statement (an InitPlan) and each list tests its chunks against the array, a per-row filter
 * that keeps the vector list on its HNSW index (iterative scans find more rows while too few
 * pass). `within` narrows it to files a request named.
 */
export function filteredFileIds(condition: SQL, within?: readonly string[]): SQL {
  const named = within
    ? sql` and f.id in (${sql.join(
        within.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  return sql`array(select f.id from files f where f.status = 'ready' and ${condition}${named})`;
}
