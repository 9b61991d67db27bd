/**
 * The kinds of credential a caller proves who they are with. `@credential(kind)` on a route
 * says it takes that kind only (unmarked routes take either); the authorize hook enforces it.
 * - `login`: a login token, issued by logging in with the password. Routes that administer
 *   identity (users, roles, passwords, sessions, keys) take only this: a long-lived key that
 *   could mint credentials or take over accounts would outlive its own revocation.
 * - `key`: an API key, the credential of scripts and integrations (the OpenAI-compatible
 *   routes, whose clients always send one in `Authorization: Bearer`).
 */
export const CREDENTIALS = ['login', 'key'] as const;

export type Credential = (typeof CREDENTIALS)[number];
