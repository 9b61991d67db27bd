import { principalOf } from '#shared/auth/principal';
import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import { notFound } from '#shared/errors/app-error';
import { embedOne, embeddingModelId } from '#shared/model/embed';
import { accessDenied, type ServiceImpl } from '#shared/service';
import { auditActor, knowledgeDb, type KnowledgeCall } from '../call';
import { chunkEnabled, chunkRecorded, chunkText, fileEnabled, fileRecorded } from '../store/audit';
import { knowledgeConfig } from '../config';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { normaliseForIndex } from '../ingest/normalise-for-index';
import {
  chunkById,
  chunkForCaller,
  correctChunk,
  fileChunkCount,
  fileChunksPage,
  switchChunk,
  switchFile,
  type ChunkRow,
} from '../store/chunks';
import { fileFor } from './files';
import { callValidity } from './metadata';
import { listedFileView } from './views';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

const chunkView = (row: ChunkRow) => ({
  id: row.id,
  index: row.index,
  page: row.page,
  section: row.section,
  heading_path: row.headingPath,
  text: row.text,
  text_source: row.textSource,
  enabled: row.enabled,
  edited_by: row.editedBy,
  edited_at: row.editedAt?.toISOString() ?? null,
  original_text: row.originalText,
  embedding_model: row.embeddingModel,
});

/** A file's chunks in order, for whoever may read the file (404 for anyone else). */
export const GetChunks: Impl['GetChunks'] = async ({ file_id, page, size }, ctx) => {
  await fileFor(ctx, file_id);
  const kdb = knowledgeDb(ctx);
  const [rows, [total]] = await kdb.batch([
    fileChunksPage(kdb.db, file_id, size, (page - 1) * size),
    fileChunkCount(kdb.db, file_id),
  ] as const);
  return {
    file_id,
    items: rows.map(chunkView),
    page,
    size,
    total: Number(total?.total ?? 0),
  };
};

/**
 * A chunk the caller may change: 404 when they cannot read it, 403 when they read it but may
 * not manage its file. Asked before the model is called, so a reader's edit costs no embedding.
 */
async function manageableChunk(ctx: KnowledgeCall, id: number) {
  const kdb = knowledgeDb(ctx);
  const [found] = await kdb.run(chunkForCaller(kdb.db, id));
  if (!found) throw notFound('passage');
  if (!found.manageable) throw accessDenied('may not manage this file');
}

/**
 * A correction or a switch. New text is embedded (as ingest embeds: its index form) BEFORE the
 * answer, and the text, vector, model and search terms are written by one statement rather than
 * in the background: there is never a moment when the chunk's text and its index disagree, the
 * keeper's answer says it is searchable as corrected, and the cost is one embedding call
 * (bench/keeping.ts times a correction until a query finds it). A model failure is a 502 before anything is written. An update that
 * touches no row (the chunks_edit policy refused it, e.g. the caller lost the editor role
 * meanwhile) is a 403.
 */
export const PutChunk: Impl['PutChunk'] = async ({ body }, ctx) => {
  await manageableChunk(ctx, body.id);
  const kdb = knowledgeDb(ctx);
  let changed: { id: number }[];
  if ('text' in body) {
    const config = knowledgeConfig(ctx.env);
    const embedding = await embedOne(config.model, normaliseForIndex(body.text), {
      columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
      signal: ctx.signal,
    });
    const user = principalOf(ctx);
    [changed] = await kdb.batch([
      correctChunk(kdb.db, body.id, {
        text: body.text,
        embedding,
        embeddingModel: embeddingModelId(config.model),
        editor: { id: user.id, username: user.username },
      }),
      chunkRecorded(
        kdb.db,
        body.id,
        { action: 'knowledge.chunk_edit', actor: auditActor(ctx) },
        chunkText(body.text),
      ),
    ]);
    ctx.log.info('chunk corrected', { chunk_id: body.id });
  } else {
    [changed] = await kdb.batch([
      switchChunk(kdb.db, body.id, body.enabled),
      chunkRecorded(
        kdb.db,
        body.id,
        {
          action: 'knowledge.chunk_switch',
          actor: auditActor(ctx),
          detail: { enabled: body.enabled },
        },
        chunkEnabled(body.enabled),
      ),
    ]);
    ctx.log.info('chunk switched', { chunk_id: body.id, enabled: body.enabled });
  }
  if (changed.length === 0) throw accessDenied('may not manage this file');
  const [row] = await kdb.run(chunkById(kdb.db, body.id));
  if (!row) throw notFound('passage');
  return chunkView(row);
};

/** Switches a whole file off or on: for whoever may manage it (files_manage). */
export const PutFileEnabled: Impl['PutFileEnabled'] = async ({ body }, ctx) => {
  await fileFor(ctx, body.id, { manage: true });
  const kdb = knowledgeDb(ctx);
  const [changed] = await kdb.batch([
    switchFile(kdb.db, body.id, body.enabled),
    fileRecorded(
      kdb.db,
      body.id,
      {
        action: 'knowledge.file_switch',
        actor: auditActor(ctx),
        detail: { enabled: body.enabled },
      },
      fileEnabled(body.enabled),
    ),
  ]);
  if (changed.length === 0) throw accessDenied('may not manage this file');
  ctx.log.info('file switched', { file_id: body.id, enabled: body.enabled });
  const found = await fileFor(ctx, body.id);
  return listedFileView(found, undefined, (await callValidity(ctx, [body.id])).get(body.id));
};
