import type { ChatDone, ConversationMessage } from '../api/services';

/**
 * A stored answer as the stream showed it: the service stores the model's own text, and
 * neutralises tag openers only in what it streams (workers/chat/src/markup.ts); Markdown is
 * sanitised either way, but the text reads the same.
 */
export const asStreamed = (text: string) => text.replace(/<(?=[A-Za-z/!?])/g, '＜');

/** One sentence of an answer checked against the passages it cites (see the chat contract). */
export type SentenceSupport = NonNullable<ChatDone['support']>[number];

/**
 * A stored turn's sentence support: a complete answer's only (an answer cut off was never
 * checked), and none for turns stored before answers were checked.
 */
export const storedSupport = (message: ConversationMessage): readonly SentenceSupport[] | null =>
  message.status === 'complete' ? (message.support ?? null) : null;
