import { z } from 'zod';
import { ROLES } from '../auth/roles';
import { defineService, enumOf, fileDownload, method, redirect } from '../service';
import { ModuleHealth, PageNumber } from './common';
import { Username } from './username';

export const Role = enumOf(ROLES);

// No control characters (NUL above all: Postgres text cannot hold it) and no lone surrogates.
const PRINTABLE = /^[^\p{Cc}\p{Cs}]*$/u;
const NOT_PRINTABLE = 'must not contain control characters';

const Password = z.string().min(8).max(128);

export const User = z.object({
  id: z.uuid(),
  username: z.string(),
  role: Role,
  created_at: z.string(),
});

export const ManagedUser = User.extend({
  disabled: z.boolean(),
  updated_at: z.string(),
});

export const Login = z.object({
  token: z.string(),
  /** When the token expires, ISO 8601. */
  expire: z.string(),
});

/** An API key as listed: never the key itself, which is shown once, when it is created. */
export const ApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters, to recognise it by (`kbc_…`). */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** When the key stops working, ISO 8601; null: until revoked. */
  expires_at: z.string().nullable(),
});

const ApiKeyName = z
  .string()
  .max(100)
  .regex(PRINTABLE, NOT_PRINTABLE)
  .refine((name) => name.trim().length > 0, 'must not be empty');

const Jwk = z.looseObject({ kty: z.string(), kid: z.string() });

/** How the login page offers to sign in (GetSignInOptions). */
export const SignInOptions = z.object({
  /** Username and password are accepted (AUTH_LOCAL_PASSWORDS is not off). */
  password: z.boolean(),
  /** Sign-up is open (ALLOW_SIGNUP). */
  signup: z.boolean(),
  /** Single sign-on, when an OpenID Connect provider is configured: its name and where to start. */
  sso: z.object({ label: z.string(), start_url: z.string() }).nullable(),
});

/** One audit record (shared/audit): who did what, on which object, from where, how it ended. */
export const AuditRecord = z.object({
  id: z.number().int(),
  at: z.string(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  key_id: z.string().nullable(),
  address: z.string().nullable(),
  action: z.string(),
  object_type: z.string().nullable(),
  object_id: z.string().nullable(),
  object_label: z.string().nullable(),
  outcome: z.enum(['ok', 'denied', 'failed']),
  detail: z.record(z.string(), z.unknown()),
});

/** The audit trail's filters (GetAudit, GetAuditExport). */
const AuditFilters = {
  /** A user's id or (part of) their name. */
  actor: z.string().max(200).optional(),
  /** An action (`knowledge.upload`) or its module's prefix (`knowledge.`). */
  action: z.string().max(100).optional(),
  /** An object's id, or (part of) its name. */
  object: z.string().max(200).optional(),
  outcome: z.enum(['ok', 'denied', 'failed']).optional(),
  /** ISO 8601 date or time, inclusive. */
  from: z.string().max(40).optional(),
  /** ISO 8601 date or time, exclusive (a date: the whole day included). */
  to: z.string().max(40).optional(),
};

/** The auth module: users, login tokens, roles (spec sections 1, 4.1, 5). */
export const authService = defineService({
  name: 'auth',
  prefix: '/moduleauth',
  doc: 'Users log in and get a bearer token (an Ed25519-signed JWT); roles USER and SUPER_ADMIN.',
  annotatedOnly: true,
  methods: {
    GetHealth: method({
      doc: 'Liveness and a database round trip. @role(guest)',
      output: ModuleHealth,
    }),
    PostLogin: method({
      doc: `Logs in. Unknown user, wrong password and disabled user all answer the same 401.
Too many failures answer 429 with Retry-After: per username and client address, per address,
and (from addresses the user has not logged in from) per username with a growing delay.
@role(guest)`,
      params: {
        body: z.object({
          username: z.string().min(1).max(100).regex(PRINTABLE, NOT_PRINTABLE),
          password: z.string().min(1).max(128),
        }),
      },
      output: Login,
    }),
    GetMe: method({
      doc: 'The current user. Other modules call it over RPC to check a token’s user. @grpc',
      output: User,
    }),
    PostSignup: method({
      doc: 'Creates an account, only when ALLOW_SIGNUP is true (otherwise 403). @role(guest)',
      params: { body: z.object({ username: Username, password: Password }) },
      output: User,
    }),
    PutPassword: method({
      doc: `Changes the current user’s own password. Every session of the user ends, this one
included; the answer carries a new token for it. Wrong old passwords count against the login
throttle (429 with Retry-After). @credential(login)`,
      params: {
        body: z.object({ old_password: z.string().min(1).max(128), new_password: Password }),
      },
      output: Login,
    }),
    PostLogoutOthers: method({
      doc: `Signs the current user out of every other session (other browsers, other devices):
their tokens stop working at once. The answer is a new token for this session. @credential(login)`,
      output: Login,
    }),
    PostLogout: method({
      doc: `Signs out of this session: its token is refused from then on, everywhere (the
user's other sessions carry on), and the sign-out is recorded in the audit trail. @credential(login)`,
    }),
    GetSignInOptions: method({
      doc: 'How the login page offers to sign in: password, sign-up, single sign-on. @role(guest)',
      output: SignInOptions,
    }),
    GetSsoStart: method({
      doc: `Starts single sign-on: redirects (302) to the OpenID Connect provider with a one-time
state, nonce and PKCE challenge. 404 when no provider is configured. @path(/sso/start) @role(guest)`,
      params: { return_to: z.string().max(200).optional() },
      output: redirect(),
    }),
    GetSsoCallback: method({
      doc: `Where the provider sends the browser back: the code is exchanged, the ID token checked
(issuer, audience, signature, expiry, nonce), the user matched or created, and the browser
redirected (302) to the web app, which collects its token with PostSsoSession. A state used once,
unknown or expired is refused. @path(/sso/callback) @role(guest)`,
      params: {
        code: z.string().max(2000).optional(),
        state: z.string().max(200).optional(),
        error: z.string().max(200).optional(),
        error_description: z.string().max(1000).optional(),
        iss: z.string().max(500).optional(),
      },
      output: redirect(),
    }),
    PostSsoSession: method({
      doc: `Hands the web app the token of a single sign-on that has just succeeded (kept for a
minute in an HttpOnly cookie by the callback, never in a URL); the cookie is cleared. @path(/sso/session) @role(guest)`,
      output: Login,
    }),
    PostLogoutAll: method({
      doc: 'Logs the current user out everywhere: every token of theirs stops working at once. @credential(login)',
    }),
    ListUsers: method({
      doc: 'Every user, oldest first, a page at a time. @role(SUPER_ADMIN)',
      params: {
        page: PageNumber.default(1),
        size: z.number().int().min(1).max(100).default(20),
      },
      output: z.object({
        items: z.array(ManagedUser),
        total: z.number().int(),
        page: z.number().int(),
        size: z.number().int(),
      }),
    }),
    CreateUser: method({
      doc: 'Creates a user. @role(SUPER_ADMIN) @credential(login)',
      params: {
        body: z.object({
          username: Username,
          password: Password,
          super_admin: z.boolean().default(false),
        }),
      },
      output: ManagedUser,
    }),
    PutUserRole: method({
      doc: `Sets or clears the super-admin flag; a change ends the user's sessions. The last
active super admin stays. @role(SUPER_ADMIN) @credential(login)`,
      params: { body: z.object({ user_id: z.uuid(), super_admin: z.boolean() }) },
      output: ManagedUser,
    }),
    PutUserStatus: method({
      doc: `Disables or enables a user. Disabling ends their sessions and revokes (deletes) their
API keys at once; enabling brings no key back. @role(SUPER_ADMIN) @credential(login)`,
      params: { body: z.object({ user_id: z.uuid(), disabled: z.boolean() }) },
      output: ManagedUser,
    }),
    PutUserPassword: method({
      doc: 'Resets a user’s password; their sessions end. @role(SUPER_ADMIN) @credential(login)',
      params: { body: z.object({ user_id: z.uuid(), password: Password }) },
    }),
    PostUserLogoutAll: method({
      doc: 'Ends every session of a user: their tokens stop working at once. @role(SUPER_ADMIN) @credential(login)',
      params: { body: z.object({ user_id: z.uuid() }) },
    }),
    DeleteUser: method({
      doc: 'Deletes a user, with their API keys. The last active super admin stays. @role(SUPER_ADMIN) @credential(login)',
      params: { user_id: z.uuid() },
    }),
    PostApiKey: method({
      doc: `Creates an API key for the current user: it acts as them (same role) on every module,
sent as \`Authorization: Bearer kbc_…\`, until it is revoked, or the user is disabled (which
revokes it for good) or deleted. The answer is the only time the key is shown; only its hash
is kept. A key cannot create keys (nor manage users, passwords or sessions): one that leaked
could otherwise outlive its revocation through what it made. @credential(login)`,
      params: {
        body: z.object({
          name: ApiKeyName,
          /** When the key stops working (ISO 8601, in the future); omitted: until revoked. */
          expires_at: z.iso
            .datetime({ offset: true })
            .refine((at) => Date.parse(at) > Date.now(), 'must be in the future')
            .optional(),
        }),
      },
      output: ApiKey.extend({ key: z.string() }),
    }),
    GetApiKeys: method({
      doc: 'The current user’s API keys, newest first.',
      output: z.object({ items: z.array(ApiKey) }),
    }),
    DeleteApiKey: method({
      doc: 'Revokes an API key of the current user’s (a SUPER_ADMIN: anyone’s); the next request made with it is refused. @credential(login)',
      params: { id: z.uuid() },
    }),
    ListAllApiKeys: method({
      doc: 'Every user’s API keys, newest first, a page at a time. @role(SUPER_ADMIN)',
      params: {
        page: PageNumber.default(1),
        size: z.number().int().min(1).max(100).default(20),
      },
      output: z.object({
        items: z.array(ApiKey.extend({ user_id: z.uuid(), username: z.string() })),
        total: z.number().int(),
        page: z.number().int(),
        size: z.number().int(),
      }),
    }),
    GetAudit: method({
      doc: `The audit trail, newest first, a page at a time, filtered by actor, action, object,
outcome and time. @role(SUPER_ADMIN)`,
      params: {
        ...AuditFilters,
        page: PageNumber.default(1),
        size: z.number().int().min(1).max(200).default(50),
      },
      output: z.object({
        items: z.array(AuditRecord),
        total: z.number().int(),
        page: z.number().int(),
        size: z.number().int(),
      }),
    }),
    GetAuditExport: method({
      doc: `The audit trail as CSV (UTF-8 with a byte-order mark), with the same filters; the export
is itself recorded. @path(/audit/export) @role(SUPER_ADMIN)`,
      params: AuditFilters,
      output: fileDownload({ contentTypes: ['text/csv'] }),
    }),
    GetJwks: method({
      doc: 'The public keys that verify tokens (a JWKS). @path(/.well-known/jwks.json) @role(guest)',
      output: z.object({ keys: z.array(Jwk) }),
      envelope: false,
    }),
  },
});
