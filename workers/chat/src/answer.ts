import type OpenAI from 'openai';
import type { z } from 'zod';
import type { ChatMessage } from '../../../shared/contracts/chat';
import type {
  knowledgeService,
  QueryResult as QueryResultSchema,
} from '../../../shared/contracts/knowledge';
import type { Logger } from '../../../shared/log/logger';
import { sseEvent, type RpcClientOf } from '../../../shared/service';
import type { AnswerSettings } from './config';
import { buildPrompt, NO_RELEVANT_KNOWLEDGE, SYSTEM_MESSAGE } from './prompt';

/** The spec's fixed figures: results asked of knowledge, tokens and temperature. */
export const TOP_RESULTS = 10;
export const MAX_TOKENS = 4096;
export const TEMPERATURE = 0.2;
/** Candidates a refusal names: enough to rephrase or tune the threshold, not a result list. */
export const REFUSAL_CANDIDATES = 3;

// Short and non-leaking: the cause goes to the log with the request id.
export const KNOWLEDGE_UNAVAILABLE = 'Sorry, the knowledge base is unavailable right now.';
export const MODEL_FAILED = 'Sorry, the answer could not be completed. Please try again.';

export interface AnswerRequest {
  prompt: string;
  /** The retrieval, already under way: it runs while the stream opens (see startRetrieval). */
  retrieval: Promise<QueryResult[]>;
  requestId: string;
  signal: AbortSignal;
  log: Logger;
}

export interface AnswerDeps {
  model: OpenAI;
  chatModel: string;
  settings: AnswerSettings;
}

type Message = z.output<typeof ChatMessage>;

type QueryResult = z.output<typeof QueryResultSchema>;

/**
 * Asks knowledge for the best chunks (the spec's QueryReq: Text = prompt, Top = 10) at once,
 * so that the retrieval runs while the token's session is settled and the stream opens.
 */
export function startRetrieval(
  knowledge: RpcClientOf<typeof knowledgeService>,
  prompt: string,
  fileIds: string[] | undefined,
): Promise<QueryResult[]> {
  const retrieval = knowledge.GetQuery({
    text: prompt,
    top: TOP_RESULTS,
    file_id: fileIds?.join(','),
  });
  retrieval.catch(() => undefined); // observed by answer(), unless the call is refused first
  return retrieval;
}

/**
 * The spec's chat behaviour, in order: retrieve (Top 10), keep similarity ≥ threshold, refuse
 * when nothing is left (saying why in a `refusal` event), build the prompt, echo it, stream the model's answer chunk by chunk,
 * then the sources and `done`. Every path ends with `done` or one `error` message.
 */
export async function* answer(request: AnswerRequest, deps: AnswerDeps) {
  const { log, requestId } = request;
  const message = (type: 'content' | 'error', content: string): Message => ({
    content,
    request_id: requestId,
    type,
  });

  let results;
  try {
    results = await request.retrieval;
  } catch (err) {
    log.error('knowledge query failed', { error: String(err) });
    yield message('error', KNOWLEDGE_UNAVAILABLE);
    return;
  }

  const kept = results.filter((r) => r.similarity >= deps.settings.minSimilarity);
  if (kept.length === 0) {
    log.warn('no relevant knowledge: refused without asking the model', {
      retrieved: results.length,
      best_similarity: results[0]?.similarity ?? null,
      threshold: deps.settings.minSimilarity,
    });
    yield message('error', NO_RELEVANT_KNOWLEDGE);
    yield sseEvent('refusal', explainRefusal(results, deps.settings.minSimilarity, requestId));
    return;
  }

  const prompt = buildPrompt(request.prompt, kept);
  if (deps.settings.echoPrompt) yield message('content', prompt);

  let usage: OpenAI.CompletionUsage | undefined;
  try {
    const stream = await deps.model.chat.completions.create(
      {
        model: deps.chatModel,
        messages: [
          { role: 'system', content: SYSTEM_MESSAGE },
          { role: 'user', content: prompt },
        ],
        max_tokens: MAX_TOKENS,
        temperature: TEMPERATURE,
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: request.signal, timeout: deps.settings.modelTimeoutMs, maxRetries: 0 },
    );
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) yield message('content', delta);
      if (chunk.usage) usage = chunk.usage;
    }
  } catch (err) {
    if (request.signal.aborted) {
      log.info('client went away: model request aborted');
      return;
    }
    log.error('model request failed', { error: String(err) });
    yield message('error', MODEL_FAILED);
    return;
  }

  yield sseEvent(
    'sources',
    kept.map(({ file_id, file_name, page, section, similarity }) => ({
      file_id,
      file_name,
      page,
      section,
      similarity,
    })),
  );
  yield sseEvent('done', {
    request_id: requestId,
    ...(usage
      ? {
          usage: {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            total_tokens: usage.total_tokens,
          },
        }
      : {}),
  });
}

/**
 * What the refusal's companion event says (after the error message, which stays as the
 * original's clients read it): the nearest candidates by cosine similarity, whatever order the
 * fused retrieval ranked them in, since similarity is what the threshold tests.
 */
export function explainRefusal(
  results: readonly QueryResult[],
  threshold: number,
  requestId: string,
) {
  const nearest = [...results]
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, REFUSAL_CANDIDATES);
  return {
    request_id: requestId,
    best_similarity: nearest[0]?.similarity ?? null,
    threshold,
    candidates: nearest.map(({ file_id, file_name, page, section, similarity }) => ({
      file_id,
      file_name,
      page,
      section,
      similarity,
    })),
  };
}
