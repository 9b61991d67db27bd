import type OpenAI from 'openai';
import type { Logger } from '#shared/log/logger';
import type { PastTurn } from './history';
import type { UsageMeter } from '../usage/meter';

/** Turns the rewriting reads: the follow-up refers to what was just said, not to long ago. */
export const CONDENSE_TURNS = 3;
/** Of each past answer, its start: enough to know what it was about. */
const ANSWER_CHARS = 300;
const MAX_TOKENS = 200;
/** A rewrite longer than this is not a question any more: the question itself is searched. */
const MAX_REWRITE_CHARS = 1000;

export const CONDENSE_SYSTEM =
  'You rewrite a follow-up question from a conversation into a standalone question.';

/**
 * The follow-up as a question that stands alone ("and what about freight?" → "what is the
 * refund rule for freight?"), for retrieval: a follow-up's own words rarely find the passage.
 * The model condenses the recent turns and the question; when it fails or answers something
 * that is not a question, the question itself is searched (the chat goes on either way).
 */
export async function standaloneQuestion(
  request: {
    question: string;
    turns: readonly PastTurn[];
    signal: AbortSignal;
    log: Logger;
  },
  deps: { model: OpenAI; chatModel: string; timeoutMs: number; meter?: UsageMeter },
): Promise<string> {
  const { question, turns, log } = request;
  if (turns.length === 0) return question;
  try {
    const completion = await deps.model.chat.completions.create(
      {
        model: deps.chatModel,
        messages: [
          { role: 'system', content: CONDENSE_SYSTEM },
          { role: 'user', content: condensePrompt(turns.slice(-CONDENSE_TURNS), question) },
        ],
        max_tokens: MAX_TOKENS,
        temperature: 0,
      },
      { signal: request.signal, timeout: deps.timeoutMs, maxRetries: 0 },
    );
    deps.meter?.addGeneration(completion.usage);
    const rewritten = oneLine(completion.choices[0]?.message?.content ?? '');
    if (rewritten.length === 0 || rewritten.length > MAX_REWRITE_CHARS) {
      log.warn('follow-up rewrite unusable: the question itself is searched', {
        chars: rewritten.length,
      });
      return question;
    }
    return rewritten;
  } catch (err) {
    if (request.signal.aborted) throw err;
    log.warn('follow-up rewrite failed: the question itself is searched', { error: String(err) });
    return question;
  }
}

/**
 * The rewriting request. The conversation is data inside a delimited block, as retrieved text
 * is in the answer prompt; the offline model recognises the block and the last line.
 */
export function condensePrompt(turns: readonly PastTurn[], question: string): string {
  const conversation = turns
    .flatMap((turn) => [
      `User: ${oneLine(turn.question)}`,
      `Assistant: ${oneLine(turn.answer).slice(0, ANSWER_CHARS)}`,
    ])
    .map((line) => line.replace(/<\/?conversation>/gi, ''))
    .join('\n');
  return [
    'Rewrite the follow-up question so that it can be understood without the conversation:',
    'keep its language, add what it refers to from the conversation, and answer with the',
    'rewritten question only. If it already stands alone, answer with it unchanged.',
    '',
    '<conversation>',
    conversation,
    '</conversation>',
    '',
    `Follow-up question: ${oneLine(question)}`,
  ].join('\n');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
