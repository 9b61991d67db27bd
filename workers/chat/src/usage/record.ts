import { principalOf } from '#shared/auth/principal';
import type { z } from 'zod';
import type { ChatSource } from '#shared/contracts/chat';
import { auditActor, chatDb, type ChatCall, type ChatDb } from '../call';
import type { Language } from '../answer/language';
import type { TurnOutcome } from '../answer/turn';
import { addUsage, auditQuestion, limits, quotaCheck, searchUsage } from '../store/usage';
import {
  knownLimits,
  limitApplies,
  limitsGeneration,
  rememberLimits,
  type QuotaOf,
} from '#shared/usage/known-limits';
import type { UsageMeter } from './meter';
import { collectionCountedUnder } from '#shared/usage/counted-under';
import { quotaRefusal } from '#shared/usage/quota';

type Source = z.output<typeof ChatSource>;

/** One question answered (or refused, or broken off) by any door: the SSE chat, the OpenAI door, MCP `ask`. */
export interface AskedQuestion {
  /** Which door it came through, for the audit record. */
  via: 'chat' | 'openai' | 'mcp';
  question: string;
  /** The collections the question was asked of (null: every collection the caller reads). */
  collectionIds: readonly string[] | null;
  /** How it ended (answer.ts fills it in): status, code, mode, sources. */
  outcome: Pick<TurnOutcome, 'status' | 'code' | 'mode' | 'sources'>;
  /** The tokens the models reported for it. */
  meter: UsageMeter;
  /** The stored turn, when the door stores one (the SSE chat). */
  messageId?: string;
}

/**
 * The daily limits, checked the one way every door checks them (the SSE chat's new
 * conversation, the OpenAI door, MCP `ask` through it, MCP `search`): started now, beside the
 * work it guards (the retrieval), and awaited before the model is asked or a result is given.
 * Its statement, kbchat_quota, runs after the session check every batch starts with: for a
 * login token that batch is the one that settles the session, which the call sends anyway; an
 * API key's lookup settled it already, so there the check is one more round trip. Either way it
 * runs beside the retrieval, so the answer waits for no extra round trip. The price: an asker
 * over a limit may cost the embedding the retrieval made (not counted), never an answer. A door that
 * asks a model before its retrieval (a follow-up's rewrite) awaits the check first; a stored
 * follow-up puts `quotaCheck` in its own first batch and maps its failure with `quotaRefusal`.
 *
 * Over a limit the promise rejects with the 429 in the asker's language; a refusal the door
 * never awaits (its work failed first) is no unhandled rejection. A search is not a question:
 * only the token limit stops one (`search`).
 */
export function startQuotaCheck(
  ctx: ChatCall,
  language: Language,
  what: QuotaOf = 'question',
): Promise<void> {
  // An API key's call sends no batch of its own before the answer: while the limits this
  // isolate last read say none applies, it is spared the check's round trip (known-limits.ts).
  // A login token's check is the batch that settles its session: it always runs.
  const known = knownLimits();
  if (principalOf(ctx).credential === 'key' && known && !limitApplies(known, what)) {
    return Promise.resolve();
  }
  const { batch, db } = chatDb(ctx);
  const readIn = limitsGeneration();
  const check = batch([quotaCheck(db, what), limits(db)]).then(
    ([, [row]]) => {
      if (row) rememberLimits(row, readIn);
    },
    (err: unknown) => {
      throw quotaRefusal(err, language);
    },
  );
  check.catch(() => undefined); // awaited by the door, before the model
  return check;
}

/**
 * The statements that record a question: today's usage row of (user, key, collection) and,
 * while usage_limits.audit_questions is on, its `chat.question` audit record. The SSE chat puts
 * them in the batch that stores the turn; other doors run them with `recordQuestion`.
 */
export function questionStatements(ctx: ChatCall, db: ChatDb['db'], asked: AskedQuestion) {
  const principal = principalOf(ctx);
  const { meter, outcome } = asked;
  const collectionId = collectionCountedUnder(asked.collectionIds, outcome.sources);
  const cited = citedFiles(outcome.sources);
  return [
    addUsage(db, {
      userId: principal.id,
      keyId: principal.keyId ?? null,
      collectionId,
      questions: 1,
      embeddingTokens: meter.embeddingTokens,
      promptTokens: meter.promptTokens,
      completionTokens: meter.completionTokens,
    }),
    auditQuestion(db, {
      action: 'chat.question',
      outcome: outcome.status === 'failed' ? 'failed' : 'ok',
      actor: auditActor(ctx),
      object: asked.messageId
        ? { type: 'message', id: asked.messageId }
        : { type: 'question', id: ctx.requestId ?? null },
      detail: {
        via: asked.via,
        question: asked.question,
        status: outcome.status,
        ...(outcome.code ? { code: outcome.code } : {}),
        mode: outcome.mode ?? null,
        collection_ids: asked.collectionIds,
        files: cited,
        tokens: meter.totalTokens,
      },
    }),
  ] as const;
}

/**
 * Records a question in a batch of its own (the OpenAI door and MCP `ask`, which store no
 * turn). A failure is logged: the answer was given, only its count is lost.
 */
export async function recordQuestion(ctx: ChatCall, asked: AskedQuestion): Promise<void> {
  const { batch, db } = chatDb(ctx);
  try {
    await batch(questionStatements(ctx, db, asked));
  } catch (err) {
    ctx.log.error('question usage not recorded', { via: asked.via, error: String(err) });
  }
}

/**
 * Records a search's cost (MCP `search`): the embedding tokens knowledge spent on it, in
 * today's usage row of (user, key, collection) and no question, since a search is not one (nor
 * is it a `chat.question` of the audit trail). Counted under the collection searched, else the
 * one collection every passage came from. A search that spent nothing the model reported adds
 * nothing. A failure is logged: the passages were given, only their cost is lost.
 */
export async function recordSearch(
  ctx: ChatCall,
  search: {
    collectionIds: readonly string[] | null;
    passages: readonly { collection_id: string }[];
    meter: UsageMeter;
  },
): Promise<void> {
  const { meter } = search;
  if (meter.embeddingTokens === 0) return;
  const principal = principalOf(ctx);
  const { run, db } = chatDb(ctx);
  try {
    await run(
      searchUsage(db, {
        keyId: principal.keyId ?? null,
        collectionId: collectionCountedUnder(search.collectionIds, search.passages),
        embeddingTokens: meter.embeddingTokens,
      }),
    );
  } catch (err) {
    ctx.log.error('search usage not recorded', { error: String(err) });
  }
}

/** The files the answer cited (or, citing none, was given), once each. */
function citedFiles(sources: readonly Source[]): { id: string; name: string }[] {
  const cited = sources.filter((s) => s.citation !== null);
  const files = new Map<string, string>();
  for (const s of cited.length > 0 ? cited : sources) files.set(s.file_id, s.file_name);
  return [...files].map(([id, name]) => ({ id, name }));
}

/** The items of `source`, then `done()` once, however the iteration ends (finished, failed, left). */
export async function* thenRecord<T>(source: AsyncIterable<T>, done: () => void) {
  try {
    yield* source;
  } finally {
    done();
  }
}
