import { and, asc, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { collections, files, type FileFormat, type FileStatus } from '../db/schema';
import { withCollection, type Queries } from './files';

export type FileSortKey = 'created_at' | 'name' | 'status' | 'size';

export interface FileListFilter {
  collectionId: string;
  /** Any part of the name, the 文号 or the title, case-insensitive. */
  q?: string;
  /** As the contract's enums give them (an unknown value simply matches no file). */
  status?: string;
  format?: string;
}

export interface FileListPage extends FileListFilter {
  sort: FileSortKey;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** A LIKE pattern that finds `text` as typed: its own `%`, `_` and `\` match themselves. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Statuses in the order a file goes through them (not alphabetical).
const statusRank = sql`array_position(array['queued', 'processing', 'ready', 'failed'], ${files.status})`;

const sortColumns: Record<FileSortKey, SQL | typeof files.name> = {
  created_at: sql`${files.createdAt}`,
  name: sql`lower(${files.name})`,
  status: statusRank,
  size: sql`${files.size}`,
};

/** A file whose name, 文号 or title holds `q` (case-insensitive): how staff name documents. */
function matches(q: string): SQL {
  const pattern = containsPattern(q);
  return sql`(${files.name} ilike ${pattern} escape '\\'
    or ${files.docNumber} ilike ${pattern} escape '\\'
    or ${files.title} ilike ${pattern} escape '\\')`;
}

/**
 * The collection's current files (not superseded by a newer version) the filter keeps. It reads
 * files alone (never chunks): a collection's few hundred rows, found by the
 * (collection_id, sha256) index's leading column.
 */
const current = (filter: FileListFilter) =>
  and(
    eq(files.collectionId, filter.collectionId),
    isNull(files.supersededBy),
    filter.q ? matches(filter.q) : undefined,
    filter.status ? eq(files.status, filter.status as FileStatus) : undefined,
    filter.format ? eq(files.format, filter.format as FileFormat) : undefined,
  );

/** One page of the list, sorted; ties broken by id so that pages never overlap or skip. */
export function fileListPage(db: Queries, page: FileListPage) {
  const direction = page.order === 'asc' ? asc : desc;
  return db
    .select(withCollection)
    .from(files)
    .innerJoin(collections, eq(collections.id, files.collectionId))
    .where(current(page))
    .orderBy(direction(sortColumns[page.sort]), direction(files.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many files the filter keeps. */
export const fileListTotal = (db: Queries, filter: FileListFilter) =>
  db.select({ total: count() }).from(files).where(current(filter));

/** The collection's current files per status, whatever the filters. */
export const fileStatusCounts = (db: Queries, collectionId: string) =>
  db
    .select({ status: files.status, files: count() })
    .from(files)
    .where(current({ collectionId }))
    .groupBy(files.status);
