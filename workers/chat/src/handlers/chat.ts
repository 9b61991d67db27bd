import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import { AppError, notFound } from '#shared/errors/app-error';
import { createModelClient } from '#shared/model/client';
import { sseEvent, type ServiceImpl } from '#shared/service';
import { answer } from '../answer/answer';
import { chatConfig } from '../config';
import { chatDb, type ChatCall } from '../call';
import { groundedTurn } from '../answer/grounding';
import type { PastTurn } from '../answer/history';
import { languageOf } from '../answer/language';
import * as store from '../store/conversations';
import { startOutcome, type TurnOutcome } from '../answer/turn';
import { proposeFilters } from '../answer/propose-filters';
import { gapOfTurn, recordGap } from '../gaps/record';
import { UsageMeter } from '../usage/meter';
import { quotaRefusal } from '#shared/usage/quota';
import { questionStatements, startQuotaCheck } from '../usage/record';
import { quotaCheck } from '../store/usage';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;
type ChatBody = Parameters<Impl['Chat']>[0]['body'];

/** A new conversation is titled by its first question, cut to this many characters. */
export const TITLE_CHARS = 60;

/**
 * The spec's chat, as a turn of a conversation. A new conversation costs nothing before the
 * answer: its id is made here and it is written with its first turn, once the stream ends. A
 * follow-up first reads the conversation's recent turns (one statement, which also checks the
 * session), has the question rewritten to stand alone for retrieval, and gives the model the
 * turns that fit the history budget. However the stream ends (answered, refused, failed, or
 * left by the client) the turn is stored as it was then, after the response (waitUntil).
 */
export const chat: Impl['Chat'] = async ({ body }, ctx) => {
  const config = chatConfig(ctx.env);
  if ([...body.prompt].length > config.answer.maxPromptChars) {
    throw new AppError('prompt_too_long', {
      detail: `The prompt is longer than ${config.answer.maxPromptChars} characters.`,
    });
  }
  const requestId = ctx.requestId ?? crypto.randomUUID();
  const model = createModelClient(config.model, config.answer.modelTimeoutMs);
  const database = chatDb(ctx);
  const asked = bodyScope(body);
  const language = languageOf(body.prompt);
  const meter = new UsageMeter();

  let conversation: { id: string; title: string; created: boolean };
  let scope: store.TurnScope;
  let turns: (PastTurn & { retrievalQuestion: string })[] = [];
  // The daily limits are checked in the call's first batch, before the model is asked.
  let quota: Promise<void> = Promise.resolve();
  if (body.conversation_id) {
    const [, [found], recent] = await database
      .batch([
        quotaCheck(database.db),
        store.conversationById(database.db, body.conversation_id),
        store.recentMessagesOf(database.db, body.conversation_id, config.answer.history.turns),
      ])
      .catch((err: unknown) => {
        throw quotaRefusal(err, language);
      });
    if (!found) throw notFound('conversation');
    conversation = { id: found.id, title: found.title, created: false };
    scope = asked ?? { fileIds: found.fileIds, collectionIds: found.collectionIds };
    turns = recent.reverse().map((turn) => ({
      question: turn.question,
      retrievalQuestion: turn.retrievalQuestion,
      answer: turn.answer,
      answered: turn.status === 'complete' || turn.status === 'incomplete',
    }));
  } else {
    // A new conversation sends no statement before the answer: the check (which settles the
    // session too) runs beside the retrieval, as the session check alone did, so that it adds
    // no round trip; an asker over the limit costs the question's embedding, never an answer.
    quota = startQuotaCheck(ctx, language); // awaited below, after the retrieval
    conversation = { id: crypto.randomUUID(), title: titleOf(body.prompt), created: true };
    scope = asked ?? { fileIds: null, collectionIds: null };
  }

  // The body's filters, even empty ones, are the user's word; without any, those the question
  // states in words (propose-filters.ts), told in the `filters` event so they can be removed.
  const proposed = body.filters === undefined ? proposeFilters(body.prompt) : undefined;
  const filters = body.filters ?? proposed;
  const { retrievalQuestion, retrieval, history } = await groundedTurn(
    ctx,
    { config, model, requestId, meter },
    { question: body.prompt, turns, scope, ...(filters ? { filters } : {}) },
  );
  await quota;
  const turn = {
    id: crypto.randomUUID(),
    createdAt: new Date(),
    question: body.prompt,
    retrievalQuestion,
    outcome: startOutcome(language),
  };

  async function* stream() {
    try {
      yield sseEvent('conversation', {
        request_id: requestId,
        conversation_id: conversation.id,
        message_id: turn.id,
        created: conversation.created,
        title: conversation.title,
      });
      if (proposed) {
        yield sseEvent('filters', {
          request_id: requestId,
          filters: proposed,
          proposed: true as const,
        });
      }
      yield* answer(
        {
          prompt: body.prompt,
          question: retrievalQuestion,
          history,
          outcome: turn.outcome,
          retrieval,
          requestId,
          signal: ctx.signal,
          log: ctx.log,
        },
        { model, chatModel: config.model.chatModel, settings: config.answer },
      );
    } finally {
      ctx.waitUntil(saveTurn(ctx, conversation, scope, turn, config.model.chatModel, meter));
    }
  }
  return stream();
};

/** The scope the body names, or undefined when it names none (a follow-up keeps its own). */
function bodyScope(body: ChatBody): store.TurnScope | undefined {
  if (!body.file_id && !body.collection_id) return undefined;
  return { fileIds: body.file_id ?? null, collectionIds: body.collection_id ?? null };
}

export function titleOf(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= TITLE_CHARS ? line : `${chars.slice(0, TITLE_CHARS - 1).join('')}…`;
}

/** Writes the turn (and a new conversation with it) in one transaction. */
async function saveTurn(
  ctx: ChatCall,
  conversation: { id: string; title: string; created: boolean },
  scope: store.TurnScope,
  turn: {
    id: string;
    createdAt: Date;
    question: string;
    retrievalQuestion: string;
    outcome: TurnOutcome;
  },
  chatModel: string,
  meter: UsageMeter,
): Promise<void> {
  const { batch, db } = chatDb(ctx);
  meter.addGeneration(turn.outcome.usage);
  // The question's usage and its audit record go with the turn: all three or none.
  const recorded = questionStatements(ctx, db, {
    via: 'chat',
    question: turn.question,
    collectionIds: scope.collectionIds,
    outcome: turn.outcome,
    meter,
    messageId: turn.id,
  });
  // A turn refused or failed before the model was asked, or given an official answer as
  // written (标准口径), names no model.
  const asked = turn.outcome.mode !== undefined && turn.outcome.mode !== 'official';
  const message = store.insertTurn(db, {
    ...turn,
    conversationId: conversation.id,
    model: asked ? chatModel : null,
  });
  try {
    if (conversation.created) {
      await batch([
        store.insertConversation(db, {
          id: conversation.id,
          title: conversation.title,
          createdAt: turn.createdAt,
          ...scope,
        }),
        message,
        ...recorded,
      ]);
    } else {
      await batch([message, store.touchConversation(db, conversation.id, scope), ...recorded]);
    }
  } catch (err) {
    // The answer was given; only its record is lost (the database, or a conversation deleted
    // while it streamed). Said in the log, never to the client, who has gone or been answered.
    ctx.log.error('chat turn not stored', {
      conversation_id: conversation.id,
      status: turn.outcome.status,
      error: String(err),
    });
    return;
  }
  // A refusal or an answer not found in its sources goes into the gap report (gaps/record.ts),
  // filed under the turn (stored just now) and the standalone question retrieval searched.
  const gap = gapOfTurn(turn.outcome);
  if (gap) {
    await recordGap(ctx, {
      ...gap,
      messageId: turn.id,
      question: turn.retrievalQuestion,
      scope: scope.collectionIds,
    });
  }
}
