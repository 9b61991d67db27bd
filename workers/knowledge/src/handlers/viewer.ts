import { notFound } from '#shared/errors/app-error';
import { knowledgeDb, type KnowledgeCall } from '../call';
import { chunkLocation, filePage } from '../store/chunk-location';
import { passageRects } from '../viewer/passage-rects';

/**
 * The document viewer's two reads: a passage where it stands (its page, its place in the
 * page's text and, for PDFs, the rectangles of its lines), and a page as it was indexed.
 * Access is the files' own: the database answers only what the caller may read, and anything
 * else is 404, as a file they cannot read is.
 */

export async function getChunk({ id }: { id: number }, ctx: KnowledgeCall) {
  const kdb = knowledgeDb(ctx);
  const [row] = await kdb.run(chunkLocation(kdb.db, id));
  if (!row) throw notFound('passage');
  const placed = row.charStart !== null && row.charEnd !== null;
  return {
    id: row.id,
    file_id: row.fileId,
    file_name: row.fileName,
    format: row.format,
    collection_id: row.collectionId,
    // Named for whoever cites the passage (chat's official answers); the viewer needs no name.
    ...(row.collectionName !== null ? { collection_name: row.collectionName } : {}),
    page: row.page,
    pages: row.pages,
    text: row.text,
    section: row.section,
    heading_path: row.headingPath,
    text_source: row.textSource,
    start: placed ? row.charStart : null,
    end: placed ? row.charEnd : null,
    // Chunks stored before positions, and pages without lines (other formats), have none.
    rects: placed && row.lines ? passageRects(row.lines, row.charStart ?? 0, row.charEnd ?? 0) : [],
    page_width: row.width,
    page_height: row.height,
    edited_at: row.editedAt?.toISOString() ?? null,
    enabled: row.enabled,
  };
}

export async function getPage(
  { file_id, page }: { file_id: string; page: number },
  ctx: KnowledgeCall,
) {
  const kdb = knowledgeDb(ctx);
  const [row] = await kdb.run(filePage(kdb.db, file_id, page));
  if (!row) throw notFound('page');
  return {
    file_id: row.fileId,
    file_name: row.fileName,
    format: row.format,
    page: row.page,
    pages: row.pages,
    section: row.section,
    text: row.text,
    text_source: row.textSource,
    page_width: row.width,
    page_height: row.height,
  };
}
