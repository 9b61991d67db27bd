import type OpenAI from 'openai';
import { tokenOf } from '#shared/auth/authorize';
import { knowledgeService } from '#shared/contracts/knowledge';
import { rpcClient } from '#shared/service';
import { startRetrieval, type Retrieval } from './answer';
import { standaloneQuestion } from './condense';
import type { chatConfig } from '../config';
import type { ChatCall } from '../call';
import { startOfficialMatch } from '../official/match';
import { historyMessages, recentTurns, type PastTurn } from './history';
import type { Filters } from './propose-filters';
import type { UsageMeter } from '../usage/meter';

export interface GroundingRequest {
  /** The question as asked. */
  question: string;
  /**
   * The earlier turns, oldest first. `retrievalQuestion` is what a stored turn searched: the
   * rewriting reads it instead of the question, so that a follow-up of a follow-up keeps its
   * topic. Turns without one (a client's own history) are read as asked.
   */
  turns: readonly (PastTurn & { retrievalQuestion?: string })[];
  /** The files or collections to search; neither (or null) searches the whole base. */
  scope: { fileIds?: string[] | null; collectionIds?: string[] | null };
  /** Document filters for the search (the request's, or proposed from the question). */
  filters?: Filters;
}

export interface GroundedTurn {
  /** The question rewritten to stand alone (condense.ts), or the question itself. */
  retrievalQuestion: string;
  /** Knowledge's answer, already under way. */
  retrieval: Retrieval;
  /** The turns within the history budget (history.ts), as chat messages for the model. */
  history: OpenAI.ChatCompletionMessageParam[];
}

/**
 * What every chat door (the spec's SSE chat, the OpenAI-compatible one) does before answer():
 * rewrite a follow-up to stand alone, search knowledge for it as the caller, and bound the
 * history. One place, so that the two doors cannot ground the same question differently.
 */
export async function groundedTurn(
  ctx: ChatCall,
  deps: {
    config: ReturnType<typeof chatConfig>;
    model: OpenAI;
    requestId: string;
    /** Counts the tokens every model call of the turn reports (usage/meter.ts). */
    meter: UsageMeter;
  },
  request: GroundingRequest,
): Promise<GroundedTurn> {
  const { config, model, requestId, meter } = deps;
  const retrievalQuestion = await standaloneQuestion(
    {
      question: request.question,
      turns: request.turns.map((turn) => ({
        ...turn,
        question: turn.retrievalQuestion ?? turn.question,
      })),
      signal: ctx.signal,
      log: ctx.log,
    },
    { model, chatModel: config.model.chatModel, timeoutMs: config.answer.modelTimeoutMs, meter },
  );
  // Knowledge applies the same token rules to the caller's own token.
  const token = ctx.http ? await tokenOf({ caller: { transport: 'http', context: ctx.http } }) : '';
  const knowledge = rpcClient(
    knowledgeService,
    ctx.env.KNOWLEDGE,
    { identity: { token }, requestId },
    // Knowledge embeds the question: its tokens are this user's usage.
    (usage) => meter.addEmbedding(usage.embedding_tokens),
  );
  // Retrieval starts now, while the token's session is settled and the stream opens.
  const retrieval = startRetrieval(
    knowledge,
    retrievalQuestion,
    request.scope.fileIds ?? undefined,
    request.scope.collectionIds ?? undefined,
    config.answer,
    request.filters,
  );
  // Beside it, not after it: the nearest official answer (标准口径) of the collections searched.
  if (retrieval.scope === 'all') {
    retrieval.official = startOfficialMatch(
      ctx,
      config,
      retrievalQuestion,
      request.scope.collectionIds ?? undefined,
      meter,
    );
  }
  // The model reads the turns as they were asked, not as they were searched.
  const history = historyMessages(recentTurns(request.turns, config.answer.history));
  return { retrievalQuestion, retrieval, history };
}
