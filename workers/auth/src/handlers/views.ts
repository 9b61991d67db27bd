import { roleOf } from '#shared/auth/roles';
import type { ApiKeyRow } from '../store/api-keys';
import type { User } from '../db/schema';

/** What clients see of a user: never the hash. */
export const userView = (user: User) => ({
  id: user.id,
  username: user.username,
  role: roleOf(user.isSuperAdmin),
  created_at: user.createdAt.toISOString(),
});

/** What super admins see when they manage users. */
export const managedUserView = (user: User) => ({
  ...userView(user),
  disabled: user.disabled,
  updated_at: user.updatedAt.toISOString(),
});

/** What clients see of an API key: never the key (shown once, at creation) nor its hash. */
export const apiKeyView = (key: ApiKeyRow) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  created_at: key.createdAt.toISOString(),
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  expires_at: key.expiresAt?.toISOString() ?? null,
});
