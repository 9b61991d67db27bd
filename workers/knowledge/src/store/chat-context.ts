import { sql, type SQL } from 'drizzle-orm';
import { chunks, collections, filePages, files, type PageSourceKind } from '../db/schema';
import { nearestChunksQuery, type ChunkMatch, type KnowledgeDb } from './files';
import { incomingRelations, type ResultValidity } from './result-validity';
import { validityStatus, type ValidityStatusName } from './validity';

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export interface ChosenFile {
  id: string;
  name: string;
  doc_number: string | null;
  title: string | null;
  pages: number;
  collection: { id: string; name: string };
  validity: ResultValidity;
}

/** A passage of a page: its chunk, where it stands in the page's text (UTF-16, end exclusive). */
export interface PagePassage {
  chunk_id: number;
  start: number;
  end: number;
}

export interface PageText {
  file_id: string;
  page: number;
  section: string | null;
  text_source: PageSourceKind | null;
  text: string;
  passages: PagePassage[];
}

/**
 * The passages of the page `fileId`/`page` as a json array of [id, start, end], in reading
 * order: the chunks in use whose place in the page is known.
 */
const passagesOf = (fileId: SQL, page: SQL) => sql`coalesce((
  select json_agg(json_build_array(pc.id, pc.char_start, pc.char_end) order by pc.char_start, pc.id)
  from ${chunks} pc
  where pc.file_id = ${fileId} and pc.page = ${page} and pc.enabled
    and pc.char_start is not null and pc.char_end is not null), '[]'::json)`;

const readPassages = (raw: [number | string, number, number][] | null): PagePassage[] =>
  (raw ?? []).map(([id, start, end]) => ({ chunk_id: Number(id), start, end }));

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
      doc_number: string | null;
      title: string | null;
      pages: number | string;
      collection_id: string;
      collection_name: string;
      status: ValidityStatusName;
      relations: ResultValidity['relations'];
      total_chars: number | string;
      page: number | string | null;
      section: string | null;
      text_source: PageSourceKind | null;
      text: string | null;
      passages: [number | string, number, number][] | null;
    }>(sql`
      with chosen as (
        select f.id, f.name, f.doc_number, f.title, f.pages, f.collection_id, col.name as collection_name,
               ${validityStatus({ id: sql`f.id`, docNumber: sql`f.doc_number`, expiresOn: sql`f.expires_on` })} as status,
               ${incomingRelations(sql`f.id`, sql`f.doc_number`)} as relations
        from ${files} f join ${collections} col on col.id = f.collection_id
        where f.id in (${idList(ids)}) and f.status = 'ready' and f.enabled
      ), total as (
        select coalesce(sum(char_length(${filePages.text})), 0) as chars
        from ${filePages} where ${filePages.fileId} in (select id from chosen)
      )
      select c.id as file_id, c.name as file_name, c.doc_number, c.title, c.pages, c.collection_id, c.collection_name,
             c.status, c.relations, t.chars as total_chars,
             p.page, p.label as section, p.source as text_source, p.text,
             case when p.page is not null then ${passagesOf(sql`c.id`, sql`p.page`)} end as passages
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
      doc_number: row.doc_number,
      title: row.title,
      pages: Number(row.pages),
      collection: { id: row.collection_id, name: row.collection_name },
      validity: { status: row.status, relations: row.relations },
    });
    if (row.page !== null && row.text !== null) {
      pages.push({
        file_id: row.file_id,
        page: Number(row.page),
        section: row.section,
        text_source: row.text_source,
        text: row.text,
        passages: readPassages(row.passages),
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

export type ChunkOnPage = ChunkMatch & {
  page_text: string;
  /** The passages of the chunk's page (see PagePassage); empty when the page has no text row. */
  page_passages: PagePassage[];
};

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
  type Row = Omit<ChunkOnPage, 'similarity' | 'page_passages'> & {
    similarity: string | number;
    page_passages: [number | string, number, number][] | null;
  };
  const { rows } = await kdb.run(
    kdb.db.execute<Row>(sql`
      select n.*, coalesce(pt.text, n.content) as page_text,
             case when pt.page is not null then ${passagesOf(sql`n.file_id`, sql`n.page`)} end as page_passages
      from (${nearestChunksQuery(vector, { top, fileIds })}) n
      left join ${filePages} pt on pt.file_id = n.file_id and pt.page = n.page
      order by n.similarity desc, n.id`),
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    similarity: Number(row.similarity),
    page_passages: readPassages(row.page_passages),
  }));
}
