// Shared helpers for the auth integration tests. They run inside workerd (the integration
// project) and reach the service the way a client does: through the gateway's fetch.
//
// All test files share one database for the whole run, and other files run at the same time:
// every helper makes unique usernames and client addresses so that tests never see each
// other's users or throttle each other.
import { exports } from 'cloudflare:workers';
import { base64url, importJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { inject } from 'vitest';

export const stack = () => inject('stack');

export const BASE = 'http://kb.test';

/** Every response body this isolate has seen, to check that none carries a secret. */
const seenBodies: { path: string; status: number; body: string }[] = [];

export function responsesSeen(): readonly { path: string; status: number; body: string }[] {
  return seenBodies;
}

export interface CallOptions {
  method?: string;
  token?: string;
  /** Sent as CF-Connecting-IP, the client address the login throttle keys on. */
  ip?: string;
  json?: unknown;
  /** A raw body (sent as is, with `contentType` when given). */
  body?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
}

/** One request through the gateway; the body is recorded for the secrets check. */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) headers.set('Authorization', `Bearer ${options.token}`);
  if (options.ip) headers.set('CF-Connecting-IP', options.ip);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set('Content-Type', 'application/json');
  }
  if (options.contentType) headers.set('Content-Type', options.contentType);
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body }));
  seenBodies.push({ path, status: res.status, body: await res.clone().text() });
  return res;
}

/** A username no other test uses: `<prefix>-<8 hex>`, within the 3–50 limit. */
export function uniqueName(prefix = 'user'): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A client address no other test uses (IPv6 documentation prefix). */
export function uniqueIp(): string {
  const hex = crypto.randomUUID().replaceAll('-', '');
  return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}:${hex.slice(12, 16)}::1`;
}

/** A password no other test uses (and long enough to be found in any body it leaked into). */
export function uniquePassword(): string {
  return `pw-${crypto.randomUUID()}`;
}

export interface LoginAnswer {
  token: string;
  expire: string;
}

export function login(username: string, password: string, ip: string = uniqueIp()) {
  return call('/moduleauth/login', { json: { username, password }, ip });
}

/** Logs in and returns the token; fails the test when the login does not succeed. */
export async function tokenFor(username: string, password: string): Promise<string> {
  const res = await login(username, password);
  if (res.status !== 200) {
    throw new Error(`login as ${username} answered ${res.status}: ${await res.text()}`);
  }
  const { data } = await res.json<{ data: LoginAnswer }>();
  return data.token;
}

let adminToken: Promise<string> | undefined;

/** A token of the super admin the test stack seeded (one login per isolate). */
export function seededAdminToken(): Promise<string> {
  const { admin } = stack();
  adminToken ??= tokenFor(admin.username, admin.password);
  return adminToken;
}

export interface ManagedUser {
  id: string;
  username: string;
  role: 'USER' | 'SUPER_ADMIN';
  created_at: string;
  disabled: boolean;
  updated_at: string;
}

export interface TestUser extends ManagedUser {
  password: string;
}

/** Super admins this isolate created and that are still super admins, as far as it knows. */
const createdAdmins = new Set<string>();

export function adminsCreatedHere(): string[] {
  return [...createdAdmins];
}

/** Creates a user through the admin API (as the seeded admin unless `as` is given). */
export async function createUser(
  options: { username?: string; password?: string; superAdmin?: boolean; as?: string } = {},
): Promise<TestUser> {
  const username = options.username ?? uniqueName();
  const password = options.password ?? uniquePassword();
  const res = await call('/moduleauth/user', {
    token: options.as ?? (await seededAdminToken()),
    json: { username, password, super_admin: options.superAdmin ?? false },
  });
  if (res.status !== 200) {
    throw new Error(`creating ${username} answered ${res.status}: ${await res.text()}`);
  }
  const { data } = await res.json<{ data: ManagedUser }>();
  if (data.role === 'SUPER_ADMIN') createdAdmins.add(data.id);
  return { ...data, password };
}

/** PUT /moduleauth/user_role as the seeded admin. */
export async function setRole(userId: string, superAdmin: boolean, token?: string) {
  const res = await call('/moduleauth/user_role', {
    method: 'PUT',
    token: token ?? (await seededAdminToken()),
    json: { user_id: userId, super_admin: superAdmin },
  });
  if (res.status === 200) {
    if (superAdmin) createdAdmins.add(userId);
    else createdAdmins.delete(userId);
  }
  return res;
}

/** PUT /moduleauth/user_status as the seeded admin. */
export async function setDisabled(userId: string, disabled: boolean, token?: string) {
  return call('/moduleauth/user_status', {
    method: 'PUT',
    token: token ?? (await seededAdminToken()),
    json: { user_id: userId, disabled },
  });
}

/** DELETE /moduleauth/user?user_id=… as the seeded admin. */
export async function deleteUser(userId: string, token?: string) {
  const res = await call(`/moduleauth/user?user_id=${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    token: token ?? (await seededAdminToken()),
  });
  if (res.status === 204) createdAdmins.delete(userId);
  return res;
}

/** Every user, through the paged list endpoint. */
export async function listAllUsers(token?: string): Promise<ManagedUser[]> {
  const auth = token ?? (await seededAdminToken());
  const all: ManagedUser[] = [];
  for (let page = 1; ; page++) {
    const res = await call(`/moduleauth/users?page=${page}&size=100`, { token: auth });
    if (res.status !== 200) throw new Error(`listing users answered ${res.status}`);
    const { data } = await res.json<{ data: { items: ManagedUser[]; total: number } }>();
    all.push(...data.items);
    if (data.items.length < 100 || all.length >= data.total) return all;
  }
}

/** Reads a refusal: status, content type and body text. */
export async function refusal(res: Response) {
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: await res.text(),
  };
}

export const UNAUTHORISED = {
  status: 401,
  type: 'text/plain; charset=UTF-8',
  body: 'Unauthorised',
};

export const ACCESS_DENIED = {
  status: 403,
  type: 'text/plain; charset=UTF-8',
  body: 'Access denied',
};

// ---- tokens made by hand, for the attack tests ----------------------------------------------

export interface StackKeys {
  kid: string;
  privateKey: CryptoKey;
  /** The public JWK as configured (AUTH_PUBLIC_KEYS' first key). */
  publicJwk: JWK;
  issuer: string;
  audience: string;
}

let keys: Promise<StackKeys> | undefined;

/** The stack's real signing key, so tests can forge tokens that differ in one thing only. */
export function stackKeys(): Promise<StackKeys> {
  keys ??= (async () => {
    const env = stack().workerEnv;
    const jwk = JSON.parse(env.AUTH_PRIVATE_KEY!) as JWK;
    const publicJwk = (JSON.parse(env.AUTH_PUBLIC_KEYS!) as { keys: JWK[] }).keys[0]!;
    return {
      kid: jwk.kid!,
      privateKey: (await importJWK(jwk, 'EdDSA')) as CryptoKey,
      publicJwk,
      issuer: env.AUTH_ISSUER || 'kbchat',
      audience: env.AUTH_AUDIENCE || 'kbchat',
    };
  })();
  return keys;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims a real token of this user carries, valid for an hour from now. */
export async function claimsFor(user: {
  id: string;
  username: string;
  role: string;
  /** The user's session epoch: 0 for a user whose sessions were never ended. */
  epoch?: number;
}): Promise<JWTPayload> {
  const { issuer, audience } = await stackKeys();
  const now = nowSeconds();
  return {
    sub: user.id,
    username: user.username,
    role: user.role,
    epoch: user.epoch ?? 0,
    iss: issuer,
    aud: audience,
    iat: now,
    nbf: now,
    exp: now + 3600,
  };
}

/** Signs `claims` exactly as given (nothing added) with EdDSA, the real key unless `key`. */
export async function signToken(
  claims: JWTPayload,
  options: { kid?: string; key?: CryptoKey; header?: Record<string, unknown> } = {},
): Promise<string> {
  const real = await stackKeys();
  return new SignJWT(claims)
    .setProtectedHeader({
      alg: 'EdDSA',
      typ: 'JWT',
      kid: options.kid ?? real.kid,
      ...options.header,
    })
    .sign(options.key ?? real.privateKey);
}

/** base64url of a JSON value, as the segments of a compact JWS. */
export const segment = (value: unknown) =>
  base64url.encode(new TextEncoder().encode(JSON.stringify(value)));

export function decodeSegment<T>(text: string): T {
  return JSON.parse(new TextDecoder().decode(base64url.decode(text))) as T;
}

/** Replaces one base64url character in the middle of a segment, changing its bytes. */
export function flipChar(text: string, at = Math.floor(text.length / 2)): string {
  const ch = text[at]!;
  return `${text.slice(0, at)}${ch === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
}

// ---- timing -------------------------------------------------------------------------------

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Wall time of `work` in ms. Inside workerd, `Date.now()` and `performance.now()` only advance
 * across I/O — a request to another worker is I/O, so this measures a whole round trip.
 */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}
