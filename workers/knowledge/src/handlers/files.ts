import { notFound } from '../../../../shared/errors/app-error';
import { accessDenied } from '../../../../shared/service';
import { knowledgeDb, principalOf, type KnowledgeCall } from '../context';
import type { FileRow } from '../db/schema';
import { deleteFileRow, fileById, fileContents, listFiles } from '../store/files';
import { deleteOriginal, getOriginal } from '../store/originals';

const fileView = (row: FileRow, content?: string) => ({
  id: row.id,
  name: row.name,
  size: row.size,
  pages: row.pages,
  chunks: row.chunks,
  uploader: { id: row.uploaderId, username: row.uploaderName },
  created_at: row.createdAt.toISOString(),
  ...(content === undefined ? {} : { content }),
});

export async function list(
  params: { file_id?: string[]; with_content?: boolean },
  ctx: KnowledgeCall,
) {
  const ids = params.file_id;
  const kdb = knowledgeDb(ctx);
  if (!params.with_content) {
    return (await kdb.run(listFiles(kdb.db, ids))).map((row) => fileView(row));
  }
  // The text of many long files is more than one HTTP answer carries: a session reads it.
  return kdb.transaction(async (tx) => {
    const rows = await listFiles(tx, ids);
    const contents = await fileContents(
      tx,
      rows.map((row) => row.id),
    );
    return rows.map((row) => fileView(row, contents.get(row.id) ?? ''));
  });
}

/** The uploader or a SUPER_ADMIN; the rows first (one statement), then the original. */
export async function remove({ id }: { id: string }, ctx: KnowledgeCall) {
  const user = principalOf(ctx);
  const kdb = knowledgeDb(ctx);
  const [row] = await kdb.run(fileById(kdb.db, id));
  if (!row) throw notFound('No such file.');
  if (row.uploaderId !== user.id && user.role !== 'SUPER_ADMIN') {
    throw accessDenied('not the uploader');
  }
  await kdb.run(deleteFileRow(kdb.db, id));
  await deleteOriginal(ctx.env.FILES, id);
  ctx.log.info('file deleted', { file_id: id });
}

export async function download({ id }: { id: string }, ctx: KnowledgeCall) {
  const kdb = knowledgeDb(ctx);
  const [row] = await kdb.run(fileById(kdb.db, id));
  const original = row && (await getOriginal(ctx.env.FILES, id));
  if (!row || !original) throw notFound('No such file.');
  return {
    body: original.body,
    contentType: 'application/pdf',
    filename: row.name,
    size: original.size,
  };
}
