/**
 * The offline model's answer to a follow-up rewriting request (workers/chat/src/condense.ts):
 * deterministically, a follow-up that leans on the conversation gets the key terms of its last
 * question that it lacks ("And what about freight?" after "What is the Marrowbank refund rule?" → "And what
 * about freight? Marrowbank refund rule"). A real model rewrites more cleverly; this is enough
 * for retrieval to find the passage the follow-up is about, and predictable in tests.
 */
import { messageText, type ChatMessageLike } from './answer.ts';
import { CJK_BREAK, CJK_STOP, ENGLISH_STOP, tokenize } from './lexical.ts';

const FOLLOW_UP = /^Follow-up question:[ \t]*(.+)$/m;
const CONVERSATION = /<conversation>([\s\S]*?)<\/conversation>/;
const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;
const PIECES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}][\p{L}\p{M}\p{N}./-]*/gu;
/** "第二条", "第3章": an ordinal the follow-up names replaces the one asked before. */
const ORDINAL = /第[一二三四五六七八九十百千零〇两\d]+[条章款项节部篇]/gu;

/** The rewritten question, when the messages are a rewriting request; else undefined. */
export function condensedQuestion(messages: readonly ChatMessageLike[]): string | undefined {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const text = messageText(lastUser?.content);
  const followUp = FOLLOW_UP.exec(text)?.[1]?.trim();
  const conversation = CONVERSATION.exec(text)?.[1];
  if (followUp === undefined || conversation === undefined) return undefined;
  const previous = [...conversation.matchAll(/^User:[ \t]*(.*)$/gm)].pop()?.[1] ?? '';
  return withKeyTerms(followUp, previous);
}

/**
 * A question that leans on what was asked before: it refers back ("and …", "what about …",
 * "it", 那…呢, 它, 这) or says too little to search on (at most two content words). Anything
 * else already stands alone and is answered unchanged, as a real model does.
 */
const REFERS_BACK =
  /^\s*(?:and|what about|how about|also|then)\b|\b(?:it|its|this|that|these|those|they|them|the same)\b|[那呢它这其该]|上述|还有/iu;

export function dependsOnConversation(question: string): boolean {
  return REFERS_BACK.test(question) || tokenize(question).filter((t) => t.strong).length <= 2;
}

/**
 * The follow-up, then the previous question's key terms it does not have yet; a question that
 * stands alone, unchanged.
 */
export function withKeyTerms(followUp: string, previous: string): string {
  if (!dependsOnConversation(followUp)) return followUp;
  const has = new Set(tokenize(followUp).map((t) => t.text));
  const source = new RegExp(ORDINAL.source, 'u').test(followUp)
    ? previous.replace(ORDINAL, ' ')
    : previous;
  const terms: string[] = [];
  for (const [piece] of source.normalize('NFKC').matchAll(PIECES)) {
    for (const term of CJK_RUN.test(piece) ? cjkTerms(piece) : [piece]) {
      const tokens = tokenize(term).filter((t) => t.strong);
      if (tokens.length === 0 || tokens.every((t) => has.has(t.text))) continue;
      if (!CJK_RUN.test(term) && ENGLISH_STOP.has(term.toLowerCase())) continue;
      if (!terms.includes(term)) terms.push(term);
    }
  }
  return terms.length === 0 ? followUp : `${followUp} ${terms.join(' ')}`;
}

/** A CJK run cut at function characters and question words into its content segments. */
function cjkTerms(run: string): string[] {
  let text = run;
  for (const stop of [...CJK_STOP].filter((w) => w.length > 1)) text = text.split(stop).join(' ');
  return [...text]
    .map((char) => (CJK_BREAK.has(char) || CJK_STOP.has(char) ? ' ' : char))
    .join('')
    .split(' ')
    .filter((segment) => [...segment].length >= 2);
}
