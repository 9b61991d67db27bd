import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import { createModelClient } from '#shared/model/client';
import type { ServiceImpl } from '#shared/service';
import { answer } from '../answer/answer';
import { chatConfig } from '../config';
import { groundedTurn } from '../answer/grounding';
import { languageOf } from '../answer/language';
import { startOutcome } from '../answer/turn';
import { UsageMeter } from '../usage/meter';
import { recordQuestion, startQuotaCheck, thenRecord } from '../usage/record';
import { pieces, type Piece } from '../openai/chunks';
import { BASE_MODEL, conversationOf, filtersOf, groundingOf } from '../openai/request';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

/** `created` of the listed models: when the grounding modes were introduced. */
const MODELS_CREATED = 1_795_000_000;

/** The route's name, for the chat module's stream error hook. */
export const COMPLETIONS_ROUTE = 'CreateChatCompletion';

export const listModels: Impl['ListModels'] = () => ({
  object: 'list',
  data: [{ id: BASE_MODEL, object: 'model', created: MODELS_CREATED, owned_by: 'kbchat' }],
});

/**
 * OpenAI's Chat Completions over the knowledge base: the same answer() as the SSE chat, with
 * the history from the request instead of a stored conversation. Nothing is stored.
 */
export const createChatCompletion: Impl['CreateChatCompletion'] = async ({ body }, ctx) => {
  const config = chatConfig(ctx.env);
  const grounding = groundingOf(body.model);
  const { question, turns, instructions } = conversationOf(body, config.answer.maxPromptChars);
  const requestId = ctx.requestId ?? crypto.randomUUID();
  const model = createModelClient(config.model, config.answer.modelTimeoutMs);
  const language = languageOf(question);
  // The daily limits, checked beside the retrieval and settled before the model answers, as
  // every door checks them (usage/record.ts). A follow-up's rewrite asks the chat model before
  // the retrieval starts: the check is settled before it.
  const quota = startQuotaCheck(ctx, language);
  if (turns.length > 0) await quota;
  const meter = new UsageMeter();
  const { retrievalQuestion, retrieval, history } = await groundedTurn(
    ctx,
    { config, model, requestId, meter },
    // The `kbchat.filters` extension; none are proposed from the question here: this door's
    // clients have no way to see or remove them.
    { question, turns, scope: grounding, ...filtersOf(body) },
  );
  await quota;
  const outcome = startOutcome(language);
  const answered = answer(
    {
      prompt: question,
      question: retrievalQuestion,
      history,
      outcome,
      ...(instructions ? { instructions } : {}),
      retrieval,
      requestId,
      signal: ctx.signal,
      log: ctx.log,
    },
    // The prompt echo is the spec's stream's only.
    {
      model,
      chatModel: config.model.chatModel,
      settings: { ...config.answer, echoPrompt: false },
    },
  );
  // However the answer ends, its usage (and audit record) is written after it.
  const items = thenRecord(answered, () => {
    meter.addGeneration(outcome.usage);
    ctx.waitUntil(
      recordQuestion(ctx, {
        // The MCP server's `ask` answers through this door (workers/chat/src/mcp/server.ts).
        via: ctx.route === 'PostMcp' ? 'mcp' : 'openai',
        question,
        collectionIds: grounding.collectionIds ?? null,
        outcome,
        meter,
      }),
    );
  });
  const head = {
    id: `chatcmpl-${requestId.replaceAll('-', '')}`,
    created: Math.floor(Date.now() / 1000),
    model: body.model,
  };
  const answerPieces = pieces(items, outcome, requestId);
  if (body.stream) return chunks(answerPieces, head, body.stream_options?.include_usage ?? false);

  let content = '';
  for await (const piece of answerPieces) {
    if (piece.kind === 'text') {
      content += piece.text;
      continue;
    }
    return {
      ...head,
      object: 'chat.completion' as const,
      choices: [
        {
          index: 0,
          message: { role: 'assistant' as const, content, refusal: null },
          logprobs: null,
          finish_reason: 'stop' as const,
        },
      ],
      usage: piece.usage,
      sources: piece.sources,
      ...(piece.support ? { support: piece.support } : {}),
      ...(piece.refusal ? { kbchat_refusal: piece.refusal } : {}),
      ...(piece.official ? { kbchat_official: piece.official } : {}),
    };
  }
  // Only when the client went away: nobody reads this.
  throw new Error('answer ended without a result');
};

type Head = { id: string; created: number; model: string };

async function* chunks(source: AsyncIterable<Piece>, head: Head, includeUsage: boolean) {
  const chunk = (
    delta: { role?: 'assistant'; content?: string },
    finish: 'stop' | null,
    extra: object = {},
  ) => ({
    ...head,
    object: 'chat.completion.chunk' as const,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
    ...extra,
  });
  yield chunk({ role: 'assistant', content: '' }, null);
  for await (const piece of source) {
    if (piece.kind === 'text') {
      yield chunk({ content: piece.text }, null);
      continue;
    }
    yield chunk({}, 'stop', {
      sources: piece.sources,
      ...(piece.support ? { support: piece.support } : {}),
      ...(piece.refusal ? { kbchat_refusal: piece.refusal } : {}),
      ...(piece.official ? { kbchat_official: piece.official } : {}),
    });
    if (includeUsage) yield { ...chunk({}, null), choices: [], usage: piece.usage };
  }
}
