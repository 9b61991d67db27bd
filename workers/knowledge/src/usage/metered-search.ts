import { principalOf } from '#shared/auth/principal';
import { languageOf } from '#shared/i18n/language';
import { startCallUsage } from '#shared/service/call-usage';
import { collectionCountedUnder } from '#shared/usage/counted-under';
import {
  forgetLimits,
  knownLimits,
  limitApplies,
  limitsGeneration,
  rememberLimits,
} from '#shared/usage/known-limits';
import { quotaRefusal } from '#shared/usage/quota';
import { knowledgeDb, type KnowledgeCall } from '../call';
import { dailyLimits, searchQuotaCheck, searchUsage } from '../store/usage';

/**
 * A search a person or a script makes over HTTP (`GET /moduleknowledge/query`, `/context` when
 * the chosen files do not fit whole, a
 * retrieval test run) is limited and metered as MCP `search` is: the daily token limit refuses
 * it (429 `quota_exceeded`, in the language of what was searched), and the tokens its
 * embeddings spent are the user's usage, counted under the collection searched (or the one its
 * results came from). While a limit may apply the check runs first, so that a refusal costs no
 * embedding; while none does (the limits this isolate read say so) it runs beside the work.
 * Chat's calls over RPC are counted by chat, which is told their tokens back: they pass through
 * untouched.
 */
export async function meteredSearch<T>(
  ctx: KnowledgeCall,
  search: { text: string; collectionIds: readonly string[] | null },
  work: () => Promise<T>,
  found: (result: T) => readonly { collection_id: string }[] = () => [],
): Promise<T> {
  if (!ctx.http) return work();
  const usage = startCallUsage(ctx);
  const principal = principalOf(ctx);
  const { run, db } = knowledgeDb(ctx);
  const check = admitted(ctx, search.text);
  // While a limit may apply, the model is not asked before the check lets the search in (a
  // refusal then costs no embedding); while none applies, both run at once.
  if (limitMayApply()) await check;
  const [result] = await Promise.all([work(), check]);
  if (usage.embedding_tokens > 0) {
    ctx.waitUntil(
      run(
        searchUsage(db, {
          keyId: principal.keyId ?? null,
          collectionId: collectionCountedUnder(search.collectionIds, found(result)),
          embeddingTokens: usage.embedding_tokens,
        }),
      ).catch((err: unknown) => ctx.log.error('search usage not recorded', { error: String(err) })),
    );
  }
  return result;
}

/** Unless the limits this isolate last read say no daily limit applies to a search. */
function limitMayApply(): boolean {
  const known = knownLimits();
  return !known || limitApplies(known, 'search');
}

/**
 * The limits check (kbchat_quota(false)), refused as the 429 in the language of `text`. A call
 * made with an API key skips it while the limits this isolate last read say none applies (as
 * chat's doors do, known-limits.ts); a login token's check always runs.
 */
function admitted(ctx: KnowledgeCall, text: string): Promise<void> {
  if (principalOf(ctx).credential === 'key' && !limitMayApply()) return Promise.resolve();
  const { batch, db } = knowledgeDb(ctx);
  const readIn = limitsGeneration();
  return batch([searchQuotaCheck(db), dailyLimits(db)]).then(
    ([, { rows }]) => {
      if (rows[0]) rememberLimits(rows[0], readIn);
    },
    (err: unknown) => {
      const refusal = quotaRefusal(err, languageOf(text));
      // A limit applies after all: what this isolate remembered is out of date.
      if (refusal !== err) forgetLimits();
      throw refusal;
    },
  );
}
