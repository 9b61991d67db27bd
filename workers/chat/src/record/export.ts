import type { chatService } from '#shared/contracts/chat';
import { AppError, notFound } from '#shared/errors/app-error';
import type { Principal } from '#shared/auth/roles';
import type { ServiceImpl } from '#shared/service';
import { auditActor, chatDb, knowledgeAsCaller, type ChatCall } from '../call';
import { conversationRecorded } from '../store/audit';
import { chatConfig } from '../config';
import { recordTurnsOf, type RecordTurnRow } from '../store/answer-record';
import { conversationById } from '../store/conversations';
import {
  recordFilename,
  renderAnswerRecord,
  type Passage,
  type RecordSentence,
  type RecordSource,
  type RecordFileNow,
  type RecordTurn,
  type RecordValidity,
} from './answer-record';
import { filesNow } from '../handlers/sources-now';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

/** At most this many passages are asked of knowledge at once (Workers allow 6 open connections). */
const PASSAGE_CONCURRENCY = 6;

interface StoredSource {
  file_id: string;
  file_name: string;
  collection_id?: string | null;
  doc_number?: string | null;
  validity?: RecordValidity;
  page: number;
  section?: string | null;
  text_source?: string | null;
  similarity: number | null;
  chunk_id?: number | null;
  citation?: number | null;
}

/**
 * GetConversationExport: the conversation's record in Markdown. Its turns come under row-level
 * security (another user's conversation is not there: 404); each source's passage is read
 * from knowledge as the caller, under the file's access rules as they are now.
 */
export const exportConversation: Impl['GetConversationExport'] = async ({ id, time_zone }, ctx) => {
  const { batch, db } = chatDb(ctx);
  const [[conversation], rows] = await batch([
    conversationById(db, id),
    recordTurnsOf(db, id),
    conversationRecorded(db, id, { action: 'chat.conversation_export', actor: auditActor(ctx) }),
  ]);
  if (!conversation) throw notFound('conversation');
  const [passages, now] = await Promise.all([
    readPassages(ctx, rows),
    // Whoever acts on the record must see a file replaced or deleted since (not fatal: the
    // record then tells the sources as the answer had them).
    filesNow(ctx, rows.flatMap(sourcesOf)),
  ]);
  const config = chatConfig(ctx.env);
  const markdown = renderAnswerRecord({
    id: conversation.id,
    title: conversation.title,
    // The language the conversation was started in labels the whole record.
    language: rows[0]?.language === 'zh' ? 'zh' : 'en',
    createdAt: conversation.createdAt,
    exportedAt: new Date(),
    timeZone: time_zone,
    currentModel: { name: config.model.chatModel, offline: config.offlineModel },
    turns: rows.map((row) => recordTurn(row, passages, now)),
  });
  return {
    body: markdown,
    contentType: 'text/markdown; charset=utf-8',
    filename: recordFilename(conversation.title),
    size: new TextEncoder().encode(markdown).byteLength,
  };
};

function sourcesOf(row: RecordTurnRow): StoredSource[] {
  return Array.isArray(row.sources) ? (row.sources as StoredSource[]) : [];
}

function recordTurn(
  row: RecordTurnRow,
  passages: Map<number, Passage>,
  now: Awaited<ReturnType<typeof filesNow>>,
): RecordTurn {
  return {
    question: row.question,
    answer: row.answer,
    status: row.status,
    askedAt: row.createdAt,
    model: row.model ?? null,
    support: Array.isArray(row.support) ? (row.support as RecordSentence[]) : null,
    sources: sourcesOf(row).map((source): RecordSource => ({
      fileName: source.file_name,
      docNumber: source.doc_number,
      validity: source.validity,
      now: recordNow(now?.get(source.file_id)),
      page: source.page,
      section: source.section,
      textSource: source.text_source,
      similarity: source.similarity,
      citation: source.citation,
      passage:
        typeof source.chunk_id === 'number'
          ? asOfTurn(passages.get(source.chunk_id) ?? { kind: 'gone' }, row.createdAt)
          : row.mode === 'full_text' || source.chunk_id === null
            ? { kind: 'page' }
            : { kind: 'unrecorded' },
    })),
  };
}

/** A file's state now as the record takes it (times as dates). */
function recordNow(
  now: NonNullable<Awaited<ReturnType<typeof filesNow>>> extends Map<string, infer N>
    ? N | undefined
    : never,
): RecordFileNow | undefined {
  if (!now) return undefined;
  switch (now.state) {
    case 'current':
      return { state: 'current', validity: now.validity };
    case 'superseded':
      return {
        state: 'superseded',
        validity: now.validity,
        supersededAt: now.superseded_at ? new Date(now.superseded_at) : null,
        version: now.version,
        current: now.current ?? null,
      };
    case 'deleted':
    case 'unavailable':
      return { state: now.state };
    default:
      // A state this worker does not know yet (`unknown`): said as nothing.
      return undefined;
  }
}

/** A passage as the record tells it for one turn: a correction counts only if made after it. */
function asOfTurn(passage: Passage, askedAt: Date): Passage {
  if (passage.kind !== 'text' || !passage.editedAfter) return passage;
  return passage.editedAfter > askedAt ? passage : { ...passage, editedAfter: null };
}

/**
 * Every cited passage's text, by chunk id, as knowledge has it now (with when it was last
 * corrected, and whether it is switched off). A passage that is gone (its
 * file deleted, or no longer readable by the owner) is said to be; any other failure fails the
 * export, as a record that silently lacks its passages would mislead.
 */
async function readPassages(ctx: ChatCall, rows: RecordTurnRow[]): Promise<Map<number, Passage>> {
  const ids = [
    ...new Set(
      rows.flatMap((row) =>
        sourcesOf(row)
          .map((source) => source.chunk_id)
          .filter((id): id is number => typeof id === 'number'),
      ),
    ),
  ];
  const found = new Map<number, Passage>();
  if (ids.length === 0) return found;
  const knowledge = await knowledgeAsCaller(ctx);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        const chunk = await knowledge.GetChunk({ id });
        found.set(id, {
          kind: 'text',
          text: chunk.text,
          editedAfter: chunk.edited_at ? new Date(chunk.edited_at) : null,
          disabled: chunk.enabled === false,
        });
      } catch (err) {
        if (err instanceof AppError && err.status === 404) found.set(id, { kind: 'gone' });
        else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PASSAGE_CONCURRENCY, ids.length) }, worker));
  return found;
}
