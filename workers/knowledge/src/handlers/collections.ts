import { sqlStateOf } from '#shared/db/sql-state';
import { AppError, notFound } from '#shared/errors/app-error';
import { auditActor, knowledgeDb, type KnowledgeCall } from '../call';
import { collectionRecorded, memberRecorded } from '../store/audit';
import { principalOf } from '#shared/auth/principal';
import { DEFAULT_COLLECTION_ID, type CollectionRole } from '../db/schema';
import { stopIngest } from '../pipeline/watchdog';
import {
  deleteCollectionRow,
  deleteMember,
  filesIn,
  findUser,
  insertCollection,
  insertMember,
  membersOf,
  readableCollection,
  readableCollections,
  updateCollection,
  updateMember,
  type CollectionView,
} from '../store/collections';
import { collectionFor } from './collection-access';

/** SQLSTATE raised by kbchat_keep_an_owner (migration 0010). */
const LAST_OWNER = 'KBC01';

const collectionView = (c: CollectionView) => ({
  id: c.id,
  name: c.name,
  description: c.description,
  shared: c.id === DEFAULT_COLLECTION_ID,
  role: c.role,
  files: Number(c.files),
  created_at: c.createdAt.toISOString(),
});

const memberView = (m: {
  userId: string;
  username: string;
  role: CollectionRole;
  createdAt: Date;
}) => ({
  user_id: m.userId,
  username: m.username,
  role: m.role,
  added_at: m.createdAt.toISOString(),
});

const sharedHasNoMembers = () => new AppError('shared_collection');
const lastOwner = () => new AppError('last_owner');

export async function listCollections(_: unknown, ctx: KnowledgeCall) {
  const kdb = knowledgeDb(ctx);
  return (await kdb.run(readableCollections(kdb.db))).map(collectionView);
}

export async function getCollection({ id }: { id: string }, ctx: KnowledgeCall) {
  return collectionView(await collectionFor(ctx, id, 'viewer'));
}

export async function createCollection(
  { body }: { body: { name: string; description: string } },
  ctx: KnowledgeCall,
) {
  const kdb = knowledgeDb(ctx);
  const id = crypto.randomUUID();
  // The trigger makes the creator owner; the read after it, in the same transaction, sees that.
  const [, [created]] = await kdb.batch([
    insertCollection(kdb.db, { id, ...body, createdBy: principalOf(ctx).id }),
    readableCollection(kdb.db, id),
    collectionRecorded(kdb.db, id, {
      action: 'knowledge.collection_create',
      actor: auditActor(ctx),
    }),
  ]);
  ctx.log.info('collection created', { collection_id: id });
  return collectionView(created!);
}

export async function renameCollection(
  { body }: { body: { id: string; name?: string; description?: string } },
  ctx: KnowledgeCall,
) {
  await collectionFor(ctx, body.id, 'owner');
  const kdb = knowledgeDb(ctx);
  const { id, ...change } = body;
  const [[updated], [after]] = await kdb.batch([
    updateCollection(kdb.db, id, change),
    readableCollection(kdb.db, id),
    collectionRecorded(kdb.db, id, {
      action: 'knowledge.collection_update',
      actor: auditActor(ctx),
      detail: { changed: Object.keys(change) },
    }),
  ]);
  if (!updated || !after) throw notFound('collection');
  return collectionView(after);
}

/** The collection, its files (their ingests stopped, their originals removed) and members. */
export async function deleteCollection({ id }: { id: string }, ctx: KnowledgeCall) {
  await collectionFor(ctx, id, 'owner');
  if (id === DEFAULT_COLLECTION_ID) {
    throw new AppError('shared_collection');
  }
  const kdb = knowledgeDb(ctx);
  const inside = await kdb.run(filesIn(kdb.db, id));
  await Promise.all(inside.map((file) => stopIngest(ctx.env.INGEST, file)));
  const [, [deleted]] = await kdb.batch([
    collectionRecorded(kdb.db, id, {
      action: 'knowledge.collection_delete',
      actor: auditActor(ctx),
      detail: { files: inside.length },
    }),
    deleteCollectionRow(kdb.db, id),
  ]);
  if (!deleted) throw notFound('collection');
  // R2 deletes up to 1,000 keys per call.
  for (let i = 0; i < inside.length; i += 1000) {
    await ctx.env.FILES.delete(inside.slice(i, i + 1000).map((file) => file.id));
  }
  ctx.log.info('collection deleted', { collection_id: id, files: inside.length });
}

export async function listMembers({ id }: { id: string }, ctx: KnowledgeCall) {
  await collectionFor(ctx, id, 'viewer');
  const kdb = knowledgeDb(ctx);
  return (await kdb.run(membersOf(kdb.db, id))).map(memberView);
}

export async function addMember(
  { body }: { body: { collection_id: string; username: string; role: CollectionRole } },
  ctx: KnowledgeCall,
) {
  await collectionFor(ctx, body.collection_id, 'owner');
  if (body.collection_id === DEFAULT_COLLECTION_ID) throw sharedHasNoMembers();
  const kdb = knowledgeDb(ctx);
  const { rows } = await kdb.run(findUser(kdb.db, body.username));
  const user = rows[0];
  if (!user) throw notFound('user');
  const [[added]] = await kdb.batch([
    insertMember(kdb.db, {
      collectionId: body.collection_id,
      userId: user.id,
      username: user.username,
      role: body.role,
    }),
    memberRecorded(
      kdb.db,
      body.collection_id,
      user.id,
      {
        action: 'knowledge.member_add',
        actor: auditActor(ctx),
        detail: { member: user.username, role: body.role },
      },
      { fresh: true },
    ),
  ]);
  if (!added) throw new AppError('already_member');
  ctx.log.info('member added', { collection_id: body.collection_id, user_id: user.id });
  return memberView(added);
}

export async function changeMember(
  { body }: { body: { collection_id: string; user_id: string; role: CollectionRole } },
  ctx: KnowledgeCall,
) {
  await collectionFor(ctx, body.collection_id, 'owner');
  if (body.collection_id === DEFAULT_COLLECTION_ID) throw sharedHasNoMembers();
  const kdb = knowledgeDb(ctx);
  const [[changed]] = await keepingAnOwner(() =>
    kdb.batch([
      updateMember(kdb.db, body.collection_id, body.user_id, body.role),
      memberRecorded(
        kdb.db,
        body.collection_id,
        body.user_id,
        { action: 'knowledge.member_role', actor: auditActor(ctx), detail: { role: body.role } },
        { role: body.role },
      ),
    ]),
  );
  if (!changed) throw notFound('member');
  return memberView(changed);
}

/** Owners remove anyone; a member may remove themselves (leave). */
export async function removeMember(
  params: { collection_id: string; user_id: string },
  ctx: KnowledgeCall,
) {
  const leaving = params.user_id === principalOf(ctx).id;
  await collectionFor(ctx, params.collection_id, leaving ? 'viewer' : 'owner');
  if (params.collection_id === DEFAULT_COLLECTION_ID) throw sharedHasNoMembers();
  const kdb = knowledgeDb(ctx);
  const [, [removed]] = await keepingAnOwner(() =>
    kdb.batch([
      memberRecorded(kdb.db, params.collection_id, params.user_id, {
        action: 'knowledge.member_remove',
        actor: auditActor(ctx),
        detail: { leaving },
      }),
      deleteMember(kdb.db, params.collection_id, params.user_id),
    ]),
  );
  if (!removed) throw notFound('member');
  ctx.log.info('member removed', { collection_id: params.collection_id, user_id: params.user_id });
}

async function keepingAnOwner<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw sqlStateOf(err) === LAST_OWNER ? lastOwner() : err;
  }
}
