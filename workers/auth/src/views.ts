import { roleOf } from '../../../shared/auth/roles';
import type { User } from './db/schema';

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
