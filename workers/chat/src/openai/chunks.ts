import type { z } from 'zod';
import type { ChatSource, ChatMessage, ChatRefusal } from '../../../../shared/contracts/chat';
import type { KbchatRefusal } from '../../../../shared/contracts/openai';
import { AppError } from '../../../../shared/errors/app-error';
import { SseEvent } from '../../../../shared/service';
import { refusalCodes } from '../turn';

type Source = z.output<typeof ChatSource>;
type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** answer()'s items, as the OpenAI protocol needs them: answer text, then one end. */
export type Piece =
  | { kind: 'text'; text: string }
  | {
      kind: 'end';
      sources: Source[];
      usage: Usage;
      refusal: z.output<typeof KbchatRefusal> | undefined;
    };

const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
const FAILURE_STATUS: Record<string, 502 | 503> = {
  knowledge_unavailable: 503,
  model_failed: 502,
};

/**
 * Reads answer()'s stream (the spec's messages and events). A refusal becomes answer text with
 * its explanation on the end; a failure is thrown as AppError (502/503) with the message in the
 * question's language.
 */
export async function* pieces(items: AsyncIterable<unknown>): AsyncGenerator<Piece> {
  let refusal: z.output<typeof KbchatRefusal> | undefined;
  let refusalText = '';
  let sources: Source[] = [];
  let usage: Usage = NO_USAGE;
  let done = false;
  for await (const item of items) {
    if (item instanceof SseEvent) {
      if (item.event === 'sources') sources = item.data as Source[];
      if (item.event === 'refusal' && refusal) {
        refusal = { ...(item.data as z.output<typeof ChatRefusal>), code: refusal.code };
      }
      if (item.event === 'done') {
        done = true;
        usage = (item.data as { usage?: Usage }).usage ?? NO_USAGE;
      }
      continue;
    }
    const message = item as z.output<typeof ChatMessage>;
    if (message.type === 'content') {
      if (message.content) yield { kind: 'text', text: message.content };
      continue;
    }
    const code = message.code ?? 'model_failed';
    if (refusalCodes.has(code as never)) {
      refusal = { code, request_id: message.request_id };
      refusalText = message.content;
      continue;
    }
    throw new AppError(FAILURE_STATUS[code] ?? 502, code, message.content);
  }
  if (refusal) {
    yield { kind: 'text', text: refusalText };
    yield { kind: 'end', sources: [], usage: NO_USAGE, refusal };
    return;
  }
  // The client went away: answer() stopped without done.
  if (!done) return;
  yield { kind: 'end', sources, usage, refusal: undefined };
}

/** What an OpenAI client reads of a failure after the stream started (the SDK raises on it). */
export function streamError(err: unknown) {
  const known = err instanceof AppError;
  return {
    error: {
      message: known ? err.message : 'Internal server error.',
      type: known && err.status === 503 ? 'service_unavailable' : 'server_error',
      code: known ? err.code : 'internal_error',
    },
  };
}
