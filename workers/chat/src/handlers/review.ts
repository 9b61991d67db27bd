import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import { notFound } from '#shared/errors/app-error';
import type { ServiceImpl } from '#shared/service';
import { chatDb } from '../call';
import * as store from '../store/conversations';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

/**
 * A SUPER_ADMIN marks an unhelpful answer dealt with (or open again). The policy
 * messages_review_resolve lets them change only turns marked unhelpful; any other id is not there.
 */
export const PutUnhelpfulResolved: Impl['PutUnhelpfulResolved'] = async ({ body }, ctx) => {
  const { run, db } = chatDb(ctx);
  const [changed] = await run(store.resolveUnhelpful(db, body.message_id, body.resolved));
  if (!changed) throw notFound('message');
};
