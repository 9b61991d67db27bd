import { asc, eq } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { messages } from '../db/schema';
import type * as schema from '../db/schema';

type Queries = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * A conversation's turns as its record needs them, oldest first: besides what the API's
 * ConversationMessage tells, each answer's sentence support and the model that answered.
 * Under the same row-level security as ./conversations.ts: only the owner's turns are there.
 */
export const recordTurnsOf = (db: Queries, conversationId: string) =>
  db
    .select({
      id: messages.id,
      question: messages.question,
      answer: messages.answer,
      status: messages.status,
      sources: messages.sources,
      support: messages.support,
      model: messages.model,
      mode: messages.mode,
      language: messages.language,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id));

export type RecordTurnRow = Awaited<ReturnType<typeof recordTurnsOf>>[number];
