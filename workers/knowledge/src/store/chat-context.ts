import { sql } from 'drizzle-orm';
import { collections, filePages, files, type PageSourceKind } from '../db/schema';
import { nearestChunksQuery, type ChunkMatch, type KnowledgeDb } from './files';

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export interface ChosenFile {
  id: string;
  name: string;
  pages: number;
  collection: { id: string; name: string };
}

export interface PageText {
  file_id: string;
  page: number;
  section: string | null;
  text_source: PageSourceKind | null;
  text: string;
}

/**
 * The chosen files that are ready and switched on (a keeper's switched-off file is not chatted
 * with), the size of their whole text and, only when that size is within `maxChars`, every page
 * of it: one statement, so the common case (the files fit) costs one round trip and a text too
 * large is never sent over the wire. Sizes are in characters (code points), as `char_length`
 * counts them.
 */
export async function filesWithTextIfWithin(
  kdb: KnowledgeDb,
  ids: readonly string[],
  maxChars: number,
): Promise<{ files: ChosenFile[]; totalChars: number; pages: PageText[] | null }> {
  const { rows } = await kdb.run(
    kdb.db.execute<{
      file_id: string;
      file_name: string;
      pages: number | string;
      collection_id: string;
      collection_name: string;
      total_chars: number | string;
      page: number | string | null;
      section: string | null;
      text_source: PageSourceKind | null;
      text: string | null;
    }>(sql`
      with chosen as (
        select f.id, f.name, f.pages, f.collection_id, col.name as collection_name
        from ${files} f join ${collections} col on col.id = f.collection_id
        where f.id in (${idList(ids)}) and f.status = 'ready' and f.enabled
      ), total as (
        select coalesce(sum(char_length(${filePages.text})), 0) as chars
        from ${filePages} where ${filePages.fileId} in (select id from chosen)
      )
      select c.id as file_id, c.name as file_name, c.pages, c.collection_id, c.collection_name,
             t.chars as total_chars,
             p.page, p.label as section, p.source as text_source, p.text
      from chosen c cross join total t
      left join ${filePages} p on p.file_id = c.id and t.chars <= ${maxChars}
      order by c.id, p.page`),
  );
  const chosen = new Map<string, ChosenFile>();
  const pages: PageText[] = [];
  for (const row of rows) {
    chosen.set(row.file_id, {
      id: row.file_id,
      name: row.file_name,
      pages: Number(row.pages),
      collection: { id: row.collection_id, name: row.collection_name },
    });
    if (row.page !== null && row.text !== null) {
      pages.push({
        file_id: row.file_id,
        page: Number(row.page),
        section: row.section,
        text_source: row.text_source,
        text: row.text,
      });
    }
  }
  const totalChars = Number(rows[0]?.total_chars ?? 0);
  // Ordered as asked: the user's order of files is the order they are read in.
  const order = new Map(ids.map((id, i) => [id, i]));
  const byOrder = (a: string, b: string) => (order.get(a) ?? 0) - (order.get(b) ?? 0);
  return {
    files: [...chosen.values()].sort((a, b) => byOrder(a.id, b.id)),
    totalChars,
    pages:
      totalChars <= maxChars
        ? pages.sort((a, b) => byOrder(a.file_id, b.file_id) || a.page - b.page)
        : null,
  };
}

export type ChunkOnPage = ChunkMatch & { page_text: string };

/**
 * The `top` chunks of the files nearest to `vector`, each with its whole page's text: the
 * similarity query as it runs for GetQuery (same index use), wrapped to fetch the pages in
 * the same statement.
 */
export async function nearestChunksWithPages(
  kdb: KnowledgeDb,
  vector: number[],
  fileIds: string[],
  top: number,
): Promise<ChunkOnPage[]> {
  const { rows } = await kdb.run(
    kdb.db.execute<Omit<ChunkOnPage, 'similarity'> & { similarity: string | number }>(sql`
      select n.*, coalesce(pt.text, n.content) as page_text
      from (${nearestChunksQuery(vector, { top, fileIds })}) n
      left join ${filePages} pt on pt.file_id = n.file_id and pt.page = n.page
      order by n.similarity desc, n.id`),
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), similarity: Number(row.similarity) }));
}
