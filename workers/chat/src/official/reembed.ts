import { createModelClient } from '#shared/model/client';
import { embedTexts } from '#shared/model/embed';
import { chatDb, type ChatCall } from '../call';
import type { chatConfig } from '../config';
import { EMBEDDING_COLUMN_DIMENSIONS } from '../db/schema';
import { staleOfficialAnswers, storeReembeddedOfficial } from '../store/official-answers';

/** Official answers one re-embedding takes at most (a collection holds tens). */
export const REEMBED_AT_MOST = 100;
/** Questions per embedding request. */
const REEMBED_BATCH = 20;
/**
 * How long an isolate leaves a scope alone after starting its re-embedding (or failing at it):
 * chats that meet the same stale answers meanwhile start none, so a model endpoint that fails is
 * not asked again by every chat.
 */
export const REEMBED_GUARD_MS = 60_000;

const startedAt = new Map<string, number>();

/**
 * After a change of embedding model, the official answers of another model a chat met (in the
 * collections it searched) are embedded again by the configured model, after the answer
 * (waitUntil), never on its path; until they are, chat does not compare them (a question then
 * goes to the model with the retrieved passages, as without an official answer). At most one
 * re-embedding per scope and isolate at a time (REEMBED_GUARD_MS). Its tokens are nobody's
 * usage: this is the collections' upkeep, not a question's.
 */
export function reembedStaleInBackground(
  ctx: ChatCall,
  config: ReturnType<typeof chatConfig>,
  collectionIds: string[] | undefined,
  model: string,
  now = Date.now(),
): boolean {
  const scope = `${model}|${collectionIds ? [...collectionIds].sort().join(',') : '*'}`;
  const last = startedAt.get(scope);
  if (last !== undefined && now - last < REEMBED_GUARD_MS) return false;
  startedAt.set(scope, now);
  ctx.waitUntil(
    reembed(ctx, config, collectionIds, model).catch((err: unknown) =>
      ctx.log.warn('official answers of another model not re-embedded', { error: String(err) }),
    ),
  );
  return true;
}

async function reembed(
  ctx: ChatCall,
  config: ReturnType<typeof chatConfig>,
  collectionIds: string[] | undefined,
  model: string,
): Promise<void> {
  const { run, db } = chatDb(ctx);
  const stale = await run(staleOfficialAnswers(db, model, collectionIds, REEMBED_AT_MOST));
  if (stale.length === 0) return;
  const { vectors } = await embedTexts(
    createModelClient(config.model),
    config.model,
    stale.map((answer) => answer.question),
    {
      limits: { inputs: REEMBED_BATCH, tokens: Number.MAX_SAFE_INTEGER },
      columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
    },
  );
  const rows = stale.map((answer, i) => ({
    id: answer.id,
    question: answer.question,
    embedding: vectors[i]!,
  }));
  const result = await run(storeReembeddedOfficial(db, model, rows));
  ctx.log.info('official answers re-embedded', {
    model,
    changed: (result as { rows: { changed: number }[] }).rows[0]?.changed ?? 0,
  });
}

/** Forgets every scope's start (tests). */
export function forgetReembeddings(): void {
  startedAt.clear();
}
