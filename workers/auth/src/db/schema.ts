import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

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
    /**
     * Every token carries the epoch it was issued in; moving it on (password change or reset,
     * role change, disabling, "log out everywhere") ends every session issued before.
     */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    ...timestamps,
  },
  // Usernames are unique without regard to case: `Alice` and `alice` are one account.
  (t) => [uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`)],
);

/**
 * Login attempts per key in a fixed window (`pair:<name>|<address>`, `address:<address>`,
 * `user:<name>`, or `device:<id>` for an attempt with a valid device cookie), counted before the
 * password is checked. `next_allowed_at` is the per-username backoff for addresses the user has
 * not logged in from (see the login policy in the README).
 */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  failures: integer('failures').notNull(),
  nextAllowedAt: timestamp('next_allowed_at', { withTimezone: true }),
});

/** Addresses a user logged in from: familiar ones are not slowed when others guess. */
export const loginAddresses = pgTable(
  'login_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    lastSuccess: timestamp('last_success', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

/**
 * API keys for scripts and integrations: each acts as its user (same role) until revoked.
 * The key is shown once; only its SHA-256 is kept (it is 256 random bits: a slow hash would add
 * nothing but time to every request), with its first characters to recognise it by.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_hash_key').on(t.hash), index('api_keys_user_idx').on(t.userId)],
);

export type User = typeof users.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
