import type { z } from 'zod';
import type { ChatSource, ChatMessage, SentenceSupport } from '#shared/contracts/chat';
import type { OfficialGiven } from '#shared/contracts/chat';
import type { KbchatRefusal } from '#shared/contracts/openai';
import { AppError } from '#shared/errors/app-error';
import { openAiError, type OpenAiError } from '#shared/errors/openai-error';
import { SseEvent } from '#shared/service';
import type { TurnOutcome } from '../answer/turn';

type Source = z.output<typeof ChatSource>;
type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** answer()'s items, as the OpenAI protocol needs them: answer text, then one end. */
export type Piece =
  | { kind: 'text'; text: string }
  | {
      kind: 'end';
      sources: Source[];
      /** Each sentence checked against its sources: complete answers only. */
      support: z.output<typeof SentenceSupport>[] | undefined;
      usage: Usage;
      refusal: z.output<typeof KbchatRefusal> | undefined;
      /** The official answer (标准口径) it was given as, when it was. */
      official: z.output<typeof OfficialGiven> | undefined;
    };

const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/**
 * Reads answer()'s stream for the OpenAI protocol. The text comes from the stream's content
 * messages (the markup-neutralised copy, as it streams: the outcome keeps only the model's own
 * text); how it ended comes from the outcome answer() filled in. A refusal becomes answer text
 * with its explanation on the end; a failure is thrown as AppError (502/503) with the message
 * in the question's language.
 */
export async function* pieces(
  items: AsyncIterable<unknown>,
  outcome: TurnOutcome,
  requestId: string,
): AsyncGenerator<Piece> {
  for await (const item of items) {
    // Events and error messages say again what the outcome holds.
    if (item instanceof SseEvent) continue;
    const message = item as z.output<typeof ChatMessage>;
    if (message.type !== 'content' || !message.content) continue;
    yield { kind: 'text', text: message.content };
  }
  // answer() ends right after its one error message or `done`: the outcome is final here.
  const code = outcome.code ?? 'model_failed';
  switch (outcome.status) {
    case 'complete':
      yield {
        kind: 'end',
        sources: outcome.sources,
        support: outcome.support,
        usage: outcome.usage ?? NO_USAGE,
        refusal: undefined,
        official: outcome.official,
      };
      return;
    case 'refused':
      yield { kind: 'text', text: outcome.answer };
      yield {
        kind: 'end',
        sources: [],
        support: undefined,
        usage: NO_USAGE,
        refusal: outcome.refusal ? { ...outcome.refusal, code } : { code, request_id: requestId },
        official: undefined,
      };
      return;
    case 'failed':
      throw new AppError(code, { detail: outcome.answer });
    case 'incomplete':
      // The client went away: answer() stopped without an end.
      return;
  }
}

/** What an OpenAI client reads of a failure after the stream started (the SDK raises on it). */
export function streamError(err: unknown): { error: OpenAiError } {
  if (!(err instanceof AppError)) {
    return { error: openAiError(500, 'internal_error', 'Internal server error.') };
  }
  return { error: openAiError(err.status, err.code, err.message, err.errors) };
}
