import { z } from 'zod';
import { ROLES } from '../auth/roles';
import { defineService, enumOf, method } from '../service';
import { ModuleHealth } from './common';
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
});

const ApiKeyName = z
  .string()
  .max(100)
  .regex(PRINTABLE, NOT_PRINTABLE)
  .refine((name) => name.trim().length > 0, 'must not be empty');

const Jwk = z.looseObject({ kty: z.string(), kid: z.string() });

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
    PostLogoutAll: method({
      doc: 'Logs the current user out everywhere: every token of theirs stops working at once. @credential(login)',
    }),
    ListUsers: method({
      doc: 'Every user, oldest first, a page at a time. @role(SUPER_ADMIN)',
      params: {
        page: z.number().int().min(1).default(1),
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
      params: { body: z.object({ name: ApiKeyName }) },
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
        page: z.number().int().min(1).default(1),
        size: z.number().int().min(1).max(100).default(20),
      },
      output: z.object({
        items: z.array(ApiKey.extend({ user_id: z.uuid(), username: z.string() })),
        total: z.number().int(),
        page: z.number().int(),
        size: z.number().int(),
      }),
    }),
    GetJwks: method({
      doc: 'The public keys that verify tokens (a JWKS). @path(/.well-known/jwks.json) @role(guest)',
      output: z.object({ keys: z.array(Jwk) }),
      envelope: false,
    }),
  },
});
