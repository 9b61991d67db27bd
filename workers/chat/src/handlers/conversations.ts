import type { chatService } from '#shared/contracts/chat';
import { notFound } from '#shared/errors/app-error';
import type { Principal } from '#shared/auth/roles';
import type { ServiceImpl } from '#shared/service';
import type { z } from 'zod';
import type { ChatSource } from '#shared/contracts/chat';
import { chatDb, type ChatCall } from '../call';
import { recordGap, unhelpfulGap } from '../gaps/record';
import * as store from '../store/conversations';
import * as gapStore from '../store/gaps';
import { filesNow, withNow } from './sources-now';
import { conversationView, feedbackView, messageView } from './views';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;
type StoredSource = z.output<typeof ChatSource>;

export const listConversations: Impl['GetConversations'] = async ({ page, size }, ctx) => {
  const { batch, db } = chatDb(ctx);
  const [rows, [counted]] = await batch([
    store.conversationPage(db, page, size),
    store.conversationCount(db),
  ]);
  return { items: rows.map(conversationView), page, size, total: counted?.total ?? 0 };
};

export const getConversation: Impl['GetConversation'] = async ({ id }, ctx) => {
  const { batch, db } = chatDb(ctx);
  const [[conversation], turns] = await batch([
    store.conversationById(db, id),
    store.messagesOf(db, id),
  ]);
  if (!conversation) throw notFound('conversation');
  const messages = turns.map(messageView);
  // Whoever reads an old answer must see that a file it cites was replaced or deleted since,
  // or that its document no longer holds: its sources as they stand now, asked once.
  const now = await filesNow(
    ctx,
    messages.flatMap((message) => message.sources),
  );
  return {
    ...conversationView(conversation),
    messages: messages.map((message) => ({ ...message, sources: withNow(message.sources, now) })),
  };
};

export const renameConversation: Impl['PutConversation'] = async ({ body }, ctx) => {
  const { run, db } = chatDb(ctx);
  const [renamed] = await run(store.renameConversation(db, body.id, body.title.trim()));
  if (!renamed) throw notFound('conversation');
  return conversationView(renamed);
};

export const deleteConversation: Impl['DeleteConversation'] = async ({ id }, ctx) => {
  const { run, db } = chatDb(ctx);
  const [deleted] = await run(store.deleteConversation(db, id));
  if (!deleted) throw notFound('conversation');
};

export const putFeedback: Impl['PutMessageFeedback'] = async ({ body }, ctx) => {
  const { batch, db } = chatDb(ctx);
  const comment = body.comment?.trim() || null;
  const [[before], [row]] = await batch([
    store.feedbackOf(db, body.message_id),
    store.setFeedback(db, body.message_id, body.rating && { rating: body.rating, comment }),
  ]);
  if (!row) throw notFound('message');
  // The gap report follows the mark, after the answer (never failing it): a new unhelpful
  // mark files the question, taking it back removes it.
  const was = before?.feedback === 'unhelpful';
  const is = body.rating === 'unhelpful';
  if (was !== is) ctx.waitUntil(followMark(ctx, body.message_id, is));
  return { message_id: body.message_id, feedback: feedbackView(row) };
};

async function followMark(ctx: ChatCall, messageId: string, unhelpful: boolean): Promise<void> {
  const { run, db } = chatDb(ctx);
  try {
    if (!unhelpful) {
      await run(gapStore.deleteUnhelpfulGap(db, messageId));
      return;
    }
    const [turn] = await run(gapStore.turnForGap(db, messageId));
    if (!turn) return;
    const sources = Array.isArray(turn.sources) ? (turn.sources as StoredSource[]) : [];
    await recordGap(ctx, {
      ...unhelpfulGap(sources),
      messageId,
      question: turn.retrievalQuestion,
      scope: turn.collectionIds,
    });
  } catch (err) {
    ctx.log.error('gap report not updated for a feedback mark', { error: String(err) });
  }
}

export const listUnhelpful: Impl['GetUnhelpfulAnswers'] = async ({ page, size, resolved }, ctx) => {
  const { batch, db } = chatDb(ctx);
  const withResolved = resolved === true;
  const [rows, [counted]] = await batch([
    store.unhelpfulPage(db, page, size, withResolved),
    store.unhelpfulCount(db, withResolved),
  ]);
  return {
    items: rows.map((row) => ({
      ...messageView(row),
      conversation_id: row.conversationId,
      username: row.username,
      resolved_at: row.reviewResolvedAt?.toISOString() ?? null,
      ...(Array.isArray(row.closest) ? { closest_passages: row.closest as StoredSource[] } : {}),
    })),
    page,
    size,
    total: counted?.total ?? 0,
  };
};
