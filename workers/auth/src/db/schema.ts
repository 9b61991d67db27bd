import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgPolicy,
  pgRole,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// The workers' role (migration 0009); declared in knowledge's schema, referred to here by name.
const appRole = pgRole('kbchat_app').existing();

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
    /**
     * The account at an OpenID Connect provider this user signs in with (single sign-on): the
     * issuer and its `sub`. A user made by single sign-on has no password (`password_hash` is
     * empty, which no password verifies against).
     */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    ...timestamps,
  },
  (t) => [
    // Usernames are unique without regard to case: `Alice` and `alice` are one account.
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_oidc_subject_key')
      .on(t.oidcIssuer, t.oidcSubject)
      .where(sql`${t.oidcSubject} is not null`),
  ],
);

/**
 * Sessions ended before their token expires: a logout names its token's `jti` here, and
 * kbchat_session refuses a token whose session is listed. A row is of no use once the token would
 * have expired anyway (`expires_at`), and kbchat_end_session removes those. Written and read only
 * by those two functions (SECURITY DEFINER): the workers' role has no row of it.
 */
export const endedSessions = pgTable(
  'ended_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ended_sessions_expires_idx').on(t.expiresAt)],
).enableRLS();

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
    /** After this the key is refused (kbchat_key_session); null: until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_hash_key').on(t.hash), index('api_keys_user_idx').on(t.userId)],
);

/**
 * A single sign-on attempt between the redirect to the provider and its return: the `state`
 * that names it, the `nonce` its ID token must carry and the PKCE verifier. The callback
 * deletes the row as it reads it, so a state is good once (a replayed callback finds nothing).
 */
export const oidcLogins = pgTable(
  'oidc_logins',
  {
    state: text('state').primaryKey(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** Where in the web app to go back to afterwards (a hash route), or null. */
    returnTo: text('return_to'),
    /**
     * SHA-256 of the random value the starting browser got in its attempt cookie: the callback
     * completes only with that cookie, so a callback URL opened in another browser signs no one
     * in (login CSRF).
     */
    browserHash: text('browser_hash').notNull(),
    /** The client address that started it: one address may keep only so many under way. */
    address: text('address').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('oidc_logins_created_idx').on(t.createdAt),
    index('oidc_logins_address_idx').on(t.address),
  ],
);

/** How an audited action ended. */
export const AUDIT_OUTCOMES = ['ok', 'denied', 'failed'] as const;

/**
 * The audit trail (政务留痕): who did what, on which object, from where, and how it ended,
 * append-only. Rows are written only by kbchat_audit (SECURITY DEFINER): the workers' role
 * may neither insert, update nor delete them, and reads them only as a super admin. Each row
 * carries the SHA-256 of its canonical text (kbchat_audit_text) chained to the row before
 * (`prev_hash`), so that a row changed in the database breaks the chain (`npm run audit:verify`).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The acting user (null: nobody logged in, as for a failed sign-in). */
    actorId: uuid('actor_id'),
    /** The user's name then, or the name tried (a failed sign-in). */
    actorName: text('actor_name'),
    /** The API key the user acted through, when one. */
    keyId: uuid('key_id'),
    /** The client address the request came from. */
    address: text('address'),
    /** What was done: `auth.login`, `knowledge.upload`, `chat.question`… (shared/audit). */
    action: text('action').notNull(),
    objectType: text('object_type'),
    objectId: text('object_id'),
    /** A readable name of the object then (a file name, a username). */
    objectLabel: text('object_label'),
    outcome: text('outcome', { enum: AUDIT_OUTCOMES }).notNull(),
    /** What else is worth keeping (the reason of a refusal, the cited files of a question…). */
    detail: jsonb('detail').notNull().default({}),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at.desc()),
    index('audit_events_actor_idx').on(t.actorId, t.at.desc()),
    index('audit_events_action_idx').on(t.action, t.at.desc()),
    index('audit_events_object_idx').on(t.objectType, t.objectId),
    pgPolicy('audit_events_super_admin_read', {
      for: 'select',
      to: appRole,
      using: sql`(select current_setting('kbchat.role', true)) = 'SUPER_ADMIN'`,
    }),
  ],
).enableRLS();

export type User = typeof users.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
