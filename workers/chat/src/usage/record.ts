import { principalOf } from '#shared/auth/principal';
import type { z } from 'zod';
import type { ChatSource } from '#shared/contracts/chat';
import { auditActor, chatDb, type ChatCall, type ChatDb } from '../call';
import type { Language } from '../answer/language';
import type { TurnOutcome } from '../answer/turn';
import { addUsage, auditQuestion, quotaCheck } from '../store/usage';
import type { UsageMeter } from './meter';
import { quotaRefusal } from './quota';

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
 * The daily limits, checked before any model is asked: kbchat_quota in one batch, after the
 * session check that every batch starts with (so it costs no round trip a call would not make
 * anyway). A follow-up puts `quotaCheck` in its own first batch instead and maps its failure
 * with `quotaRefusal`. Over a limit: a 429 AppError in the asker's language.
 */
export async function checkQuota(ctx: ChatCall, language: Language): Promise<void> {
  const { run, db } = chatDb(ctx);
  try {
    await run(quotaCheck(db));
  } catch (err) {
    throw quotaRefusal(err, language);
  }
}

/**
 * The statements that record a question: today's usage row of (user, key, collection) and,
 * while usage_limits.audit_questions is on, its `chat.question` audit record. The SSE chat puts
 * them in the batch that stores the turn; other doors run them with `recordQuestion`.
 */
export function questionStatements(ctx: ChatCall, db: ChatDb['db'], asked: AskedQuestion) {
  const principal = principalOf(ctx);
  const { meter, outcome } = asked;
  const collectionId = collectionOfQuestion(asked.collectionIds, outcome.sources);
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
 * The one collection a question's usage is counted under: the collection it was asked of when
 * it names exactly one, else the one collection every source came from, else none (NO_ID:
 * a question over several collections, or one that found nothing).
 */
export function collectionOfQuestion(
  asked: readonly string[] | null,
  sources: readonly Pick<Source, 'collection_id'>[],
): string | null {
  if (asked?.length === 1) return asked[0]!;
  const found = new Set(sources.map((s) => s.collection_id).filter((id) => id !== ''));
  return found.size === 1 ? [...found][0]! : null;
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
