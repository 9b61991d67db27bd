/**
 * A stored answer as the stream showed it: the service stores the model's own text, and
 * neutralises tag openers only in what it streams (workers/chat/src/markup.ts); Markdown is
 * sanitised either way, but the text reads the same.
 */
export const asStreamed = (text: string) => text.replace(/<(?=[A-Za-z/!?])/g, '＜');
