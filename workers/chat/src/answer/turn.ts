import type { z } from 'zod';
import type {
  ChatMode,
  ChatRefusal,
  ChatSource,
  OfficialGiven,
  SentenceSupport,
} from '#shared/contracts/chat';
import type { MessageStatus } from '../db/schema';
import { REFUSAL_CODES, type ChatErrorCode } from '#shared/errors/catalogue';
import type { Language } from './language';

type Source = z.output<typeof ChatSource>;

/**
 * How a chat turn ended, filled in by answer() as the stream goes, so that the turn is stored
 * (and the OpenAI-compatible door's end told) as it was when the stream stopped, however it
 * stopped. It starts `incomplete`: a stream the client leaves before `done` keeps that status
 * with the answer so far.
 */
export interface TurnOutcome {
  status: MessageStatus;
  code: ChatErrorCode | undefined;
  /** The model's text (not the stream's markup-neutralised copy), or the refusal/error text. */
  answer: string;
  sources: Source[];
  /** Each sentence of a complete answer checked against its sources; undefined otherwise. */
  support: z.output<typeof SentenceSupport>[] | undefined;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
  mode: z.output<typeof ChatMode> | undefined;
  language: Language;
  /** Why a similarity refusal refused (its `refusal` event); its candidates are stored as the turn's `closest`. */
  refusal: z.output<typeof ChatRefusal> | undefined;
  /** With `mode: official`: the official answer given as written. */
  official: z.output<typeof OfficialGiven> | undefined;
}

export function startOutcome(language: Language): TurnOutcome {
  return {
    status: 'incomplete',
    code: undefined,
    answer: '',
    sources: [],
    support: undefined,
    usage: undefined,
    mode: undefined,
    language,
    refusal: undefined,
    official: undefined,
  };
}

/** Error codes that are refusals (the service declined), not failures (it could not). */
export const refusalCodes: ReadonlySet<ChatErrorCode> = new Set(REFUSAL_CODES);
