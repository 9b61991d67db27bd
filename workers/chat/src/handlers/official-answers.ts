import type { z } from 'zod';
import type { Principal } from '#shared/auth/roles';
import type { OfficialCitation } from '#shared/contracts/answer-upkeep';
import type { chatService } from '#shared/contracts/chat';
import { AppError, notFound } from '#shared/errors/app-error';
import { embeddingModelId } from '#shared/model/embed';
import { accessDenied, type ServiceImpl } from '#shared/service';
import { auditActor, chatDb, knowledgeAsCaller, type ChatCall, type ChatDb } from '../call';
import { answerIs, collectionSettingsRecorded, officialRecorded } from '../store/audit';
import { chatConfig } from '../config';
import { embedQuestion } from '../official/match';
import * as store from '../store/official-answers';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;
type Citation = z.output<typeof OfficialCitation>;

/**
 * Official answers (标准口径) and a collection's answer settings. The policies decide access;
 * the handlers only tell the two refusals apart: a collection (or answer) the caller cannot
 * read is 404, one they read but do not own is 403.
 */

async function requireStanding(database: ChatDb, collectionId: string, owner: boolean) {
  const standing = store.standingIn(
    await database.run(store.collectionStanding(database.db, collectionId)),
  );
  if (!standing?.reads) throw notFound('collection');
  if (owner && !standing.owns) throw accessDenied('only the collection’s owners');
}

const settingsOut = (collectionId: string, threshold: number | undefined, ctx: ChatCall) => ({
  collection_id: collectionId,
  min_similarity: chatConfig(ctx.env).answer.minSimilarity,
  // Stored as a `real`: 0.9 reads back as 0.8999999762; told as it was set.
  official_threshold: Math.round((threshold ?? store.DEFAULT_OFFICIAL_THRESHOLD) * 1e4) / 1e4,
});

export const GetAnswerSettings: Impl['GetAnswerSettings'] = async ({ collection_id }, ctx) => {
  const database = chatDb(ctx);
  await requireStanding(database, collection_id, false);
  const [row] = await database.run(store.answerSettingsOf(database.db, collection_id));
  return settingsOut(collection_id, row?.officialThreshold, ctx);
};

export const PutAnswerSettings: Impl['PutAnswerSettings'] = async ({ body }, ctx) => {
  const database = chatDb(ctx);
  await requireStanding(database, body.collection_id, true);
  // The threshold decides which questions get an official answer with no model: recorded in
  // the same batch.
  const [[row]] = await database.batch([
    store.upsertAnswerSettings(
      database.db,
      body.collection_id,
      body.official_threshold,
      ctx.principal!.id,
    ),
    collectionSettingsRecorded(database.db, body.collection_id, {
      action: 'chat.answer_settings_update',
      actor: auditActor(ctx),
      detail: { official_threshold: body.official_threshold },
    }),
  ]);
  return settingsOut(body.collection_id, row?.officialThreshold, ctx);
};

const answerOut = (row: store.OfficialRow) => ({
  id: row.id,
  collection_id: row.collectionId,
  question: row.question,
  answer: row.answer,
  citations: (row.citations as Citation[] | null) ?? [],
  created_by: row.createdByName,
  updated_by: row.updatedByName,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const GetOfficialAnswers: Impl['GetOfficialAnswers'] = async ({ collection_id }, ctx) => {
  const database = chatDb(ctx);
  const [standing, rows] = await database.batch([
    store.collectionStanding(database.db, collection_id),
    store.officialAnswersOf(database.db, collection_id),
  ]);
  if (!store.standingIn(standing)?.reads) throw notFound('collection');
  return rows.map(answerOut);
};

/**
 * The cited passages as knowledge tells them to the caller (GetChunk, under their own access
 * rules): one they cannot read makes the whole request 404, nothing written.
 */
async function citationsOf(ids: readonly number[], ctx: ChatCall): Promise<Citation[]> {
  if (ids.length === 0) return [];
  const knowledge = await knowledgeAsCaller(ctx);
  const located = await Promise.all(
    [...new Set(ids)].map((id) =>
      knowledge.GetChunk({ id }).catch((err: unknown) => {
        if (err instanceof AppError && err.status === 404) throw notFound('passage');
        throw err;
      }),
    ),
  );
  return located.map((chunk) => ({
    file_id: chunk.file_id,
    file_name: chunk.file_name,
    collection_id: chunk.collection_id,
    collection_name: chunk.collection_name ?? '',
    page: chunk.page,
    section: chunk.section,
    heading_path: chunk.heading_path ?? null,
    text_source: chunk.text_source,
    chunk_id: chunk.id,
  }));
}

export const PostOfficialAnswer: Impl['PostOfficialAnswer'] = async ({ body }, ctx) => {
  const config = chatConfig(ctx.env);
  const database = chatDb(ctx);
  const principal = ctx.principal!;
  await requireStanding(database, body.collection_id, true);
  if (body.id) {
    const [existing] = await database.run(store.officialAnswerById(database.db, body.id));
    // An answer of another collection is not moved by naming this one: it is not here.
    if (!existing || existing.collectionId !== body.collection_id) {
      throw notFound('official answer');
    }
  }
  // The question's embedding and the citations' places at once: neither needs the other.
  const [embedding, citations] = await Promise.all([
    embedQuestion(config.model, body.question, ctx.signal),
    citationsOf(body.citations, ctx),
  ]);
  const id = body.id ?? crypto.randomUUID();
  const row: store.OfficialWrite = {
    id,
    collectionId: body.collection_id,
    question: body.question,
    answer: body.answer,
    citations,
    embedding,
    embeddingModel: embeddingModelId(config.model),
    userId: principal.id,
    userName: principal.username,
  };
  const write = body.id
    ? store.updateOfficialAnswer(database.db, body.id, row)
    : store.insertOfficialAnswer(database.db, row);
  const record = officialRecorded(
    database.db,
    id,
    {
      action: 'chat.official_answer_save',
      actor: auditActor(ctx),
      detail: {
        collection_id: body.collection_id,
        new: !body.id,
        resolves: body.resolves?.length ?? 0,
      },
    },
    answerIs(body.question, body.collection_id),
  );
  // The answer, the gap questions it settles and its record: together or not at all.
  const [written] = body.resolves?.length
    ? await database.batch([
        write,
        store.resolveGapQuestions(database.db, body.resolves, principal.id),
        record,
      ])
    : await database.batch([write, record]);
  const saved = written[0];
  if (!saved) throw notFound('official answer');
  return answerOut(saved);
};

export const DeleteOfficialAnswer: Impl['DeleteOfficialAnswer'] = async ({ id }, ctx) => {
  const database = chatDb(ctx);
  const [existing] = await database.run(store.officialAnswerById(database.db, id));
  if (!existing) throw notFound('official answer');
  await requireStanding(database, existing.collectionId, true);
  const [, [removed]] = await database.batch([
    officialRecorded(database.db, id, {
      action: 'chat.official_answer_delete',
      actor: auditActor(ctx),
      detail: { collection_id: existing.collectionId },
    }),
    store.deleteOfficialAnswer(database.db, id),
  ]);
  if (!removed) throw notFound('official answer');
};
