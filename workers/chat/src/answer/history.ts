import type OpenAI from 'openai';

/** A stored turn as the next turn's prompt and the follow-up rewriting use it. */
export interface PastTurn {
  question: string;
  answer: string;
  /** Only answered turns go into the prompt; every turn's question helps the rewriting. */
  answered: boolean;
}

export interface HistoryBudget {
  /** About this many tokens of past turns at most. */
  tokens: number;
  /** And at most this many turns. */
  turns: number;
}

const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * A token estimate without a tokenizer (none runs in a Worker within budget): about one token
 * per CJK character and one per four other characters, which is what the OpenAI tokenizers
 * give on average for Chinese and English prose. Only used to bound the history.
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(HAN_OR_KANA)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/**
 * The turns that fit the budget, oldest first: the newest are kept, the oldest dropped first.
 * A turn goes in whole or not at all (half a turn reads as a different conversation).
 */
export function recentTurns<T extends PastTurn>(turns: readonly T[], budget: HistoryBudget): T[] {
  const kept: T[] = [];
  let tokens = 0;
  for (let i = turns.length - 1; i >= 0 && kept.length < budget.turns; i--) {
    const turn = turns[i]!;
    const cost = estimateTokens(turn.question) + estimateTokens(turn.answer);
    if (tokens + cost > budget.tokens) break;
    tokens += cost;
    kept.push(turn);
  }
  return kept.reverse();
}

/** The answered turns as chat messages, for the model to read the follow-up in their light. */
export function historyMessages(turns: readonly PastTurn[]): OpenAI.ChatCompletionMessageParam[] {
  return turns
    .filter((turn) => turn.answered)
    .flatMap((turn) => [
      { role: 'user' as const, content: turn.question },
      { role: 'assistant' as const, content: turn.answer },
    ]);
}
