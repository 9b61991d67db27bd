import { AppError } from '#shared/errors/app-error';
import type OpenAI from 'openai';
import type { z } from 'zod';
import type { ChatMessage, ChatMode, ChatSource, SentenceSupport } from '#shared/contracts/chat';
import type {
  ChatContext,
  knowledgeService,
  QueryResult as QueryResultSchema,
} from '#shared/contracts/knowledge';
import type { Logger } from '#shared/log/logger';
import { sseEvent, type RpcClientOf } from '#shared/service';
import type { AnswerSettings } from '../config';
import { citedNumbers, citedPages } from './citations';
import { checkSupport } from './support';
import { citedPassage } from './cited-passage';
import { splitSentences } from './sentences';
import { markupNeutraliser, neutraliseEcho, neutraliseMarkup } from './markup';
import type { ChatErrorCode } from '#shared/errors/catalogue';
import { languageOf, type Language } from './language';
import {
  buildFilesPrompt,
  buildPrompt,
  clientInstructions,
  pageMarker,
  systemMessage,
} from './prompt';
import { refusalCodes, type TurnOutcome } from './turn';
import type { Filters } from './propose-filters';
import { validityNote } from './validity-note';
import { givenAsWritten, officialSources } from '../official/direct';
import type { OfficialLookup, OfficialMatch } from '../official/match';

/** The spec's fixed figures: results asked of knowledge, tokens and temperature. */
export const TOP_RESULTS = 10;
export const MAX_TOKENS = 4096;
export const TEMPERATURE = 0.2;
/** Candidates a refusal names: enough to rephrase or tune the threshold, not a result list. */
export const REFUSAL_CANDIDATES = 3;

type Message = z.output<typeof ChatMessage>;
type Source = z.output<typeof ChatSource>;
type Support = z.output<typeof SentenceSupport>;
type Mode = z.output<typeof ChatMode>;
type QueryResult = z.output<typeof QueryResultSchema>;
type Context = z.output<typeof ChatContext>;

/** What knowledge was asked, already under way: the whole base, or chosen files. */
export type Retrieval =
  | {
      scope: 'all';
      results: Promise<QueryResult[]>;
      /** The nearest official answer (标准口径), looked for beside the retrieval (official/). */
      official?: OfficialLookup;
    }
  | { scope: 'files'; context: Promise<Context> };

export interface AnswerRequest {
  /** The user's question as asked: it sets the answer's language. */
  prompt: string;
  /**
   * What the prompt asks the model: the question rewritten to stand alone when it follows up
   * on a conversation (condense.ts); the question itself otherwise.
   */
  question?: string;
  /** The conversation's recent turns, oldest first, within the history budget (history.ts). */
  history?: OpenAI.ChatCompletionMessageParam[];
  /**
   * The client's own instructions (the OpenAI-compatible endpoint's system/developer messages):
   * a system message after the service's, which they never replace.
   */
  instructions?: string;
  /** Filled in as the answer goes, for the turn to be stored however the stream ends. */
  outcome?: TurnOutcome;
  /** The retrieval, already under way: it runs while the stream opens (see startRetrieval). */
  retrieval: Retrieval;
  requestId: string;
  signal: AbortSignal;
  log: Logger;
}

export interface AnswerDeps {
  model: OpenAI;
  chatModel: string;
  settings: AnswerSettings;
}

/**
 * Asks knowledge at once, so that the retrieval runs while the token's session is settled and
 * the stream opens. Without files: the spec's QueryReq (Text = prompt, Top = 10). With files:
 * their text in one call (whole when it fits the budget, else the pages of the best chunks).
 */
export function startRetrieval(
  knowledge: RpcClientOf<typeof knowledgeService>,
  prompt: string,
  fileIds: string[] | undefined,
  collectionIds: string[] | undefined,
  settings: Pick<AnswerSettings, 'contextChars' | 'filesTop'>,
  /**
   * What the documents must say of themselves (issuer, 文号, dates, type, in force), for a
   * search of the whole base or of collections; a chat limited to files reads the files the
   * user chose, whatever they say.
   */
  filters?: Filters,
): Retrieval {
  const started = fileIds
    ? {
        scope: 'files' as const,
        context: knowledge.GetContext({
          text: prompt,
          file_id: fileIds.join(','),
          max_chars: settings.contextChars,
          top: settings.filesTop,
        }),
      }
    : {
        scope: 'all' as const,
        results: knowledge.GetQuery({
          text: prompt,
          top: TOP_RESULTS,
          ...(collectionIds ? { collection_id: collectionIds.join(',') } : {}),
          ...filters,
        }),
      };
  // Observed by answer(), unless the call is refused first.
  (started.scope === 'files' ? started.context : started.results).catch(() => undefined);
  return started;
}

/** The prompt to send, and how its sources (and their support) are told once the answer is known. */
interface Prepared {
  mode: Mode;
  prompt: string;
  sources: (answer: string) => Source[];
  /** Each sentence of the answer checked against the passages it cites (support.ts). */
  support: (answer: string) => Support[];
}

class Refusal {
  constructor(
    readonly code: ChatErrorCode,
    /** Why, for the `refusal` event that follows the error message (similarity refusals). */
    readonly explained?: ReturnType<typeof explainRefusal>,
  ) {}
}

/**
 * The spec's chat behaviour, in order: retrieve (Top 10), keep similarity ≥ threshold, refuse
 * when nothing is left (saying why in a `refusal` event), build the prompt, echo it, stream the model's answer chunk by chunk,
 * then the sources and `done`. A chat limited to files reads their text instead (see
 * `prepareFiles`). Every path ends with `done` or one `error` message, in the question's
 * language.
 */
export async function* answer(request: AnswerRequest, deps: AnswerDeps) {
  const language = languageOf(request.prompt);
  const outcome = request.outcome;
  if (outcome) outcome.language = language;
  const error = (code: ChatErrorCode): Message => {
    const content = deps.settings.errorTexts[language][code];
    if (outcome) {
      outcome.status = refusalCodes.has(code) ? 'refused' : 'failed';
      outcome.code = code;
      outcome.answer = content;
      outcome.sources = [];
    }
    return { content, request_id: request.requestId, type: 'error', code };
  };
  try {
    yield* answerIn(language, request, deps, error);
  } catch (err) {
    // Unforeseen: still the one error message, in the question's language.
    if (request.signal.aborted) return;
    request.log.error('chat failed', { error: String(err) });
    yield error('model_failed');
  }
}

async function* answerIn(
  language: Language,
  request: AnswerRequest,
  deps: AnswerDeps,
  error: (code: ChatErrorCode) => Message,
) {
  const { log, requestId, outcome } = request;
  const question = request.question ?? request.prompt;
  const content = (text: string): Message => ({
    content: text,
    request_id: requestId,
    type: 'content',
  });

  // An official answer (标准口径) close enough is given as written: no model call, and no
  // waiting for the retrieval, which ran beside its lookup.
  const official = request.retrieval.scope === 'all' ? await request.retrieval.official : undefined;
  if (official?.use === 'direct') {
    yield* givenAsWritten(official, request, language, deps.settings.neutraliseMarkup);
    return;
  }

  let prepared: Prepared | Refusal;
  try {
    prepared =
      request.retrieval.scope === 'all'
        ? prepareAll(request, question, await request.retrieval.results, language, deps, official)
        : prepareFiles(question, await request.retrieval.context, language, log);
  } catch (err) {
    // A collection the user cannot read (knowledge answers 404): said as such, not as an outage.
    if (err instanceof AppError && err.status === 404) {
      log.warn('chat over collections the user cannot read');
      yield error('collections_unavailable');
      return;
    }
    log.error('knowledge query failed', { error: String(err) });
    yield error('knowledge_unavailable');
    return;
  }
  if (prepared instanceof Refusal) {
    if (outcome) outcome.refusal = prepared.explained;
    yield error(prepared.code);
    if (prepared.explained) yield sseEvent('refusal', prepared.explained);
    return;
  }

  // Document and model text never reach a client as live markup (see markup.ts).
  const safe = deps.settings.neutraliseMarkup;
  if (deps.settings.echoPrompt) {
    yield content(safe ? neutraliseEcho(prepared.prompt) : prepared.prompt);
  }
  const stream = markupNeutraliser();
  if (outcome) outcome.mode = prepared.mode;

  let usage: OpenAI.CompletionUsage | undefined;
  let answerText = '';
  try {
    const completion = await deps.model.chat.completions.create(
      {
        model: deps.chatModel,
        messages: [
          { role: 'system', content: systemMessage(language) },
          ...(request.instructions
            ? [{ role: 'system' as const, content: clientInstructions(request.instructions) }]
            : []),
          ...(request.history ?? []),
          { role: 'user', content: prepared.prompt },
        ],
        max_tokens: MAX_TOKENS,
        temperature: TEMPERATURE,
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: request.signal, timeout: deps.settings.modelTimeoutMs, maxRetries: 0 },
    );
    for await (const chunk of completion) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) {
        answerText += delta;
        if (outcome) outcome.answer = answerText;
        const text = safe ? stream.push(delta) : delta;
        if (text) yield content(text);
      }
      if (chunk.usage) usage = chunk.usage;
    }
    // An aborted model stream may simply end: the answer is then cut off, not complete.
    if (request.signal.aborted) {
      log.info('client went away: model request aborted');
      return;
    }
    const rest = stream.flush();
    if (rest) yield content(rest);
  } catch (err) {
    if (request.signal.aborted) {
      log.info('client went away: model request aborted');
      return;
    }
    log.error('model request failed', { error: String(err) });
    yield error('model_failed');
    return;
  }

  const sources = prepared.sources(answerText);
  // A cited document repealed, amended or expired: said after the answer, as text every client
  // shows (validity-note.ts). Not part of what the support check reads.
  const note = validityNote(sources, language, prepared.mode === 'retrieval');
  if (note) {
    yield content(safe ? neutraliseMarkup(note) : note);
    if (outcome) outcome.answer = answerText + note;
  }
  let support: Support[] | undefined;
  try {
    support = prepared.support(answerText);
  } catch (err) {
    // A fault of the check never costs the user the answer: it is told without support.
    log.error('support check failed', { error: String(err) });
  }
  const told = usage && {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
  };
  if (outcome) {
    outcome.sources = sources;
    outcome.support = support;
    outcome.usage = told;
    outcome.status = 'complete';
  }
  yield sseEvent('sources', sources);
  yield sseEvent('done', {
    request_id: requestId,
    mode: prepared.mode,
    language,
    ...(told ? { usage: told } : {}),
    ...(support ? { support } : {}),
  });
}

/** The spec's path: the kept results (similarity ≥ threshold), or the refusal. */
function prepareAll(
  { log, requestId }: AnswerRequest,
  question: string,
  results: QueryResult[],
  language: Language,
  deps: AnswerDeps,
  /** An official answer below its threshold but above chat's: the model's first context item. */
  official?: OfficialMatch,
): Prepared | Refusal {
  const kept = results.filter((r) => r.similarity >= deps.settings.minSimilarity);
  if (kept.length === 0 && !official) {
    log.warn('no relevant knowledge: refused without asking the model', {
      retrieved: results.length,
      best_similarity: results[0]?.similarity ?? null,
      threshold: deps.settings.minSimilarity,
    });
    return new Refusal(
      'no_relevant_knowledge',
      explainRefusal(results, deps.settings.minSimilarity, requestId),
    );
  }
  return {
    mode: 'retrieval',
    prompt: buildPrompt(
      question,
      kept,
      language,
      official && {
        question: official.question,
        answer: official.answer,
        cites: official.citations,
      },
    ),
    // `[n]` is the n-th kept result: sources stay in that order, each told where it is first cited.
    sources: (answer) => {
      const order = citedNumbers(answer, kept.length);
      const retrieved = kept.map((result, i) => {
        const at = order.indexOf(i);
        return {
          ...sourceOf(result),
          ...(result.validity ? { validity: result.validity } : {}),
          citation: at < 0 ? null : at + 1,
        };
      });
      // The official answer's citations follow the numbered ones, so `[n]` stays the n-th source.
      if (!official) return retrieved;
      const listed = new Set<number | null | undefined>(retrieved.map((s) => s.chunk_id));
      const extra = officialSources(official, false).filter((s) => !listed.has(s.chunk_id));
      return [...retrieved, ...extra];
    },
    support: (answer) =>
      checkSupport(answer, [
        ...kept.map((result) => result.content),
        // Not citable by number; read when a sentence cites none.
        ...(official ? [official.answer] : []),
      ]),
  };
}

/**
 * A chat limited to files: the user chose the source, so there is no similarity refusal while
 * the files have text. Sources are the pages the answer cites, or every page given when it
 * cites none.
 */
function prepareFiles(
  question: string,
  context: Context,
  language: Language,
  log: Logger,
): Prepared | Refusal {
  if (context.files.length === 0) {
    log.warn('chat limited to files of which none is ready');
    return new Refusal('files_unavailable');
  }
  if (context.pages.length === 0) {
    log.warn('chat limited to files: no page fits the context budget', {
      total_chars: context.total_chars,
    });
    return new Refusal('no_relevant_knowledge');
  }
  const mode: Mode = context.mode === 'full' ? 'full_text' : 'file_retrieval';
  log.info('chat limited to files', {
    mode,
    files: context.files.length,
    pages: context.pages.length,
    total_chars: context.total_chars,
  });
  const pages = context.pages;
  const markers = pages.map(pageMarker);
  const fileOf = new Map(context.files.map((file) => [file.id, file]));
  return {
    mode,
    prompt: buildFilesPrompt(question, pages, language, context.mode === 'full'),
    // The cited pages in the order of first citation (so each one's citation is its place), or
    // every page given, none cited. A cited page opens at the passage its citing sentences
    // come from (cited-passage.ts).
    sources: (answer) => {
      const cited = citedPages(answer, markers);
      const sentences = cited.length > 0 ? splitSentences(answer, markers) : [];
      const citing = (index: number) =>
        sentences.filter((s) => s.cited.includes(index + 1)).map((s) => s.text);
      const shown = cited.length > 0 ? cited : pages.map((_, i) => i);
      return shown.map((index, i) => {
        const page = pages[index]!;
        const file = fileOf.get(page.file_id);
        return {
          file_id: page.file_id,
          file_name: page.file_name,
          ...documentOf(file ?? {}),
          collection_id: file?.collection.id ?? '',
          collection_name: file?.collection.name ?? '',
          page: page.page,
          section: page.section,
          text_source: page.text_source,
          similarity: page.similarity,
          chunk_id: cited.length > 0 ? citedPassage(page, citing(index)) : (page.chunk_id ?? null),
          ...(file?.validity ? { validity: file.validity } : {}),
          citation: cited.length > 0 ? i + 1 : null,
        };
      });
    },
    // A sentence cites pages by marker; it is told by the cited pages' places among the sources.
    support: (answer) => {
      const cited = citedPages(answer, markers);
      return checkSupport(
        answer,
        pages.map((page) => page.text),
        markers,
      ).map((sentence) => ({
        ...sentence,
        cited: sentence.cited.map((n) => cited.indexOf(n - 1) + 1).filter((n) => n > 0),
      }));
    },
  };
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
    // A refusal's candidates were never given to the model: none is cited.
    candidates: nearest.map((result) => ({ ...sourceOf(result), citation: null })),
  };
}

/** What a source (or a refusal's candidate) tells of a retrieved chunk: where it is, not its text. */
/** A source's document number and title, where the document gives them (else left out). */
function documentOf(document: { doc_number?: string | null; title?: string | null }) {
  return {
    ...(document.doc_number ? { doc_number: document.doc_number } : {}),
    ...(document.title ? { title: document.title } : {}),
  };
}

function sourceOf({
  id,
  file_id,
  file_name,
  doc_number,
  title,
  collection_id,
  collection_name,
  page,
  section,
  heading_path,
  text_source,
  similarity,
}: QueryResult) {
  return {
    file_id,
    file_name,
    ...documentOf({ doc_number, title }),
    collection_id,
    collection_name,
    page,
    section,
    // Only where the document has structure: a source without it is as it always was.
    ...(heading_path ? { heading_path } : {}),
    text_source,
    similarity,
    chunk_id: id,
  };
}
