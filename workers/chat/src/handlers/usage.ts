import { principalOf } from '#shared/auth/principal';
import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import type { ServiceImpl } from '#shared/service';
import { auditActor, chatDb } from '../call';
import { limitsChangeRecorded } from '../store/audit';
import * as store from '../store/usage';
import { nextUtcMidnight } from '#shared/usage/quota';
import { forgetLimits } from '#shared/usage/known-limits';
import {
  amountsOf,
  everyDay,
  collectionOrNull,
  keyOrNull,
  limitsRow,
  limitsView,
  periodOf,
  totalsOf,
} from '../usage/report';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

/**
 * The caller's own usage: per day, per API key, per collection, today against the daily
 * limits, and their stored bytes against theirs. One batch. Every statement names the caller: a super admin's policies would
 * otherwise let in everyone's rows.
 */
export const GetUsage: Impl['GetUsage'] = async (params, ctx) => {
  const { from, to } = periodOf(params);
  const me = principalOf(ctx).id;
  const { batch, db } = chatDb(ctx);
  const [days, keys, collections, today, [limits], stored] = await batch([
    store.usageByDay(db, me, from, to),
    store.usageByKey(db, me, from, to),
    store.usageByCollection(db, me, from, to),
    store.usageToday(db, me),
    store.limits(db),
    store.storedBytes(db),
  ]);
  const perDay = everyDay(from, to, days.rows);
  const used = amountsOf(today.rows[0]);
  const set = limits ? limitsView(limits) : undefined;
  return {
    from,
    to,
    totals: totalsOf(perDay),
    days: perDay,
    by_key: keys.rows.map((row) => ({
      ...amountsOf(row),
      key_id: keyOrNull(row.key_id),
      key_name: keyOrNull(row.key_id) ? row.key_name : null,
    })),
    by_collection: collections.rows.map((row) => ({
      ...amountsOf(row),
      collection_id: collectionOrNull(row.collection_id),
      collection_name: collectionOrNull(row.collection_id) ? row.collection_name : null,
    })),
    today: {
      questions: used.questions,
      total_tokens: used.total_tokens,
      limits: {
        user_daily_tokens: set?.user_daily_tokens ?? null,
        user_daily_questions: set?.user_daily_questions ?? null,
      },
      resets_at: nextUtcMidnight().toISOString(),
    },
    storage: {
      bytes: Number(stored.rows[0]?.bytes ?? 0),
      limit: set?.user_max_bytes ?? null,
    },
  };
};

/** Everyone's usage (super admins: usage_daily's policies let them read every row). */
export const GetUsageAll: Impl['GetUsageAll'] = async (params, ctx) => {
  const { from, to } = periodOf(params);
  const { batch, db } = chatDb(ctx);
  const [days, users, collections] = await batch([
    store.usageByDay(db, null, from, to),
    store.usageByUser(db, from, to),
    store.usageByCollection(db, null, from, to),
  ]);
  const perDay = everyDay(from, to, days.rows);
  return {
    from,
    to,
    totals: totalsOf(perDay),
    days: perDay,
    by_user: users.rows.map((row) => ({
      ...amountsOf(row),
      user_id: row.user_id,
      username: row.username,
    })),
    by_collection: collections.rows.map((row) => ({
      ...amountsOf(row),
      collection_id: collectionOrNull(row.collection_id),
      collection_name: collectionOrNull(row.collection_id) ? row.collection_name : null,
    })),
  };
};

export const GetLimits: Impl['GetLimits'] = async (_, ctx) => {
  const { run, db } = chatDb(ctx);
  const [row] = await run(store.limits(db));
  return limitsView(row!);
};

/**
 * Sets the limits. One batch: the row locked, then the change with its `chat.limits_update`
 * record (the row before and after; nothing recorded if nothing changed), then the row as it is.
 */
export const PutLimits: Impl['PutLimits'] = async ({ body }, ctx) => {
  const { batch, db } = chatDb(ctx);
  const [[before], , [after]] = await batch([
    store.limitsLocked(db),
    limitsChangeRecorded(
      db,
      { read: store.limits(db), change: store.setLimits(db, limitsRow(body), principalOf(ctx).id) },
      { action: 'chat.limits_update', actor: auditActor(ctx) },
    ),
    store.limits(db),
  ]);
  // This isolate's doors check the new limits from the next question on (known-limits.ts).
  forgetLimits();
  ctx.log.info('limits changed', { before: before ?? null, after: after ?? null });
  return limitsView(after!);
};
