import type { chatService } from '#shared/contracts/chat';
import { notFound } from '#shared/errors/app-error';
import type { Principal } from '#shared/auth/roles';
import type { ServiceImpl } from '#shared/service';
import { chatDb } from '../call';
import * as store from '../store/conversations';
import { conversationView, feedbackView, messageView } from './views';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

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
  return { ...conversationView(conversation), messages: turns.map(messageView) };
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
  const { run, db } = chatDb(ctx);
  const comment = body.comment?.trim() || null;
  const [row] = await run(
    store.setFeedback(db, body.message_id, body.rating && { rating: body.rating, comment }),
  );
  if (!row) throw notFound('message');
  return { message_id: body.message_id, feedback: feedbackView(row) };
};

export const listUnhelpful: Impl['GetUnhelpfulAnswers'] = async ({ page, size }, ctx) => {
  const { batch, db } = chatDb(ctx);
  const [rows, [counted]] = await batch([
    store.unhelpfulPage(db, page, size),
    store.unhelpfulCount(db),
  ]);
  return {
    items: rows.map((row) => ({
      ...messageView(row),
      conversation_id: row.conversationId,
      username: row.username,
    })),
    page,
    size,
    total: counted?.total ?? 0,
  };
};
