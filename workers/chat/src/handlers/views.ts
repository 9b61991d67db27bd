import type { z } from 'zod';
import type { ChatSource, Conversation, ConversationMessage } from '#shared/contracts/chat';
import type { ConversationRow, MessageRow } from '../store/conversations';

type Source = z.output<typeof ChatSource>;

/** A conversation as the API tells it. */
export function conversationView(row: ConversationRow): z.output<typeof Conversation> {
  return {
    id: row.id,
    title: row.title,
    file_id: row.fileIds,
    collection_id: row.collectionIds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A stored turn as the API tells it. */
export function messageView(row: MessageRow): z.output<typeof ConversationMessage> {
  return {
    id: row.id,
    question: row.question,
    retrieval_question: row.retrievalQuestion,
    answer: row.answer,
    status: row.status,
    code: row.errorCode,
    sources: (row.sources ?? []) as Source[],
    mode: (row.mode ?? null) as z.output<typeof ConversationMessage>['mode'],
    language: row.language === 'zh' ? 'zh' : 'en',
    usage: (row.usage ?? null) as z.output<typeof ConversationMessage>['usage'],
    feedback: feedbackView(row),
    created_at: row.createdAt.toISOString(),
    support: (row.support ?? null) as z.output<typeof ConversationMessage>['support'],
    model: row.model,
  };
}

export function feedbackView(row: {
  feedback: MessageRow['feedback'];
  feedbackComment: string | null;
  feedbackAt: Date | null;
}) {
  return row.feedback && row.feedbackAt
    ? { rating: row.feedback, comment: row.feedbackComment, at: row.feedbackAt.toISOString() }
    : null;
}
