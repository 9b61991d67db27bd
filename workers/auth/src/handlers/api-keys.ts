import { apiKeyHash, apiKeyPrefix, newApiKey } from '#shared/auth/api-key';
import { notFound } from '#shared/errors/app-error';
import { allApiKeys, createApiKey, deleteApiKey, userApiKeys } from '../store/api-keys';
import { auditActor, authDb, type AuthCall } from '../call';
import { principalOf } from '#shared/auth/principal';
import { apiKeyView } from './views';

/**
 * Creates a key for the current user; the answer is the only place the key ever appears.
 * Only a login creates keys (`@credential(login)` in the contract): a key that could mint keys
 * would outlive its own revocation through them.
 */
export async function create(
  { body }: { body: { name: string; expires_at?: string } },
  ctx: AuthCall,
) {
  const key = newApiKey();
  const row = await createApiKey(
    authDb(ctx),
    {
      userId: principalOf(ctx).id,
      name: body.name,
      prefix: apiKeyPrefix(key),
      hash: await apiKeyHash(key),
      expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at),
    },
    {
      action: 'auth.key_create',
      actor: auditActor(ctx),
      detail: { expires_at: body.expires_at ?? null },
    },
  );
  return { ...apiKeyView(row), key };
}

export async function listOwn(_: unknown, ctx: AuthCall) {
  const adb = authDb(ctx);
  const rows = await adb.run(userApiKeys(adb, principalOf(ctx).id));
  return { items: rows.map(apiKeyView) };
}

/**
 * Revokes a key of the current user's, or anyone's for a super admin. Another user's key
 * answers 404 like an unknown one: a user learns nothing of keys not theirs.
 */
export async function remove({ id }: { id: string }, ctx: AuthCall) {
  const user = principalOf(ctx);
  const owner = user.role === 'SUPER_ADMIN' ? undefined : user.id;
  const record = { action: 'auth.key_revoke' as const, actor: auditActor(ctx) };
  if (!(await deleteApiKey(authDb(ctx), id, owner, record))) throw notFound('API key');
}

export async function listAll({ page, size }: { page: number; size: number }, ctx: AuthCall) {
  const { items, total } = await allApiKeys(authDb(ctx), page, size);
  return {
    items: items.map((row) => ({
      ...apiKeyView(row),
      user_id: row.userId,
      username: row.username,
    })),
    total,
    page,
    size,
  };
}
