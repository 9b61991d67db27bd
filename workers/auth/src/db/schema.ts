import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    isSuperAdmin: boolean('is_super_admin').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    ...timestamps,
  },
  // Usernames are unique without regard to case: `Alice` and `alice` are one account.
  (t) => [uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`)],
);

/** Failed logins per key (`user:<name>` or `ip:<address>`) in a fixed window. */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  failures: integer('failures').notNull(),
});

export type User = typeof users.$inferSelect;
