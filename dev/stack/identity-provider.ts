// oidc-provider ships no types; the e2e tests' program reaches this file without dev/'s includes.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider.d.ts" />
// A real OpenID Connect provider on this machine, for single sign-on in `npm run dev` (SSO=local)
// and in the tests: oidc-provider (panva, OpenID Certified) with a few local accounts, a plain
// login form for its interaction, consent granted at once (it is the service's own provider),
// PKCE required, and the ID token carrying the profile, email and groups claims.
import http from 'node:http';
import net from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type KoaContext } from 'oidc-provider';

export interface LocalAccount {
  password: string;
  email: string;
  /** Groups claim: `kbchat-admins` makes a super admin with the local stack's settings. */
  groups: string[];
  name: string;
}

/** The local accounts (local use only; passwords are not secrets here). */
export const LOCAL_ACCOUNTS: Record<string, LocalAccount> = {
  alice: {
    password: 'alice-sso-password',
    email: 'alice@example.org',
    groups: ['kbchat-admins'],
    name: 'Alice Admin',
  },
  bob: { password: 'bob-sso-password', email: 'bob@example.org', groups: [], name: 'Bob User' },
  wang: {
    password: 'wang-sso-password',
    email: 'wang@example.org',
    groups: [],
    name: '王小明',
  },
};

export const LOCAL_CLIENT = { id: 'kbchat-local', secret: 'kbchat-local-secret' };
export const ADMIN_GROUP = 'kbchat-admins';

export interface IdentityProviderOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Where the provider may send browsers back: the auth worker's callback URL(s). */
  redirectUris: string[];
  client?: { id: string; secret: string };
  accounts?: Record<string, LocalAccount>;
}

export interface RunningIdentityProvider {
  /** The issuer URL, e.g. http://127.0.0.1:41235 (OIDC_ISSUER). */
  issuer: string;
  client: { id: string; secret: string };
  /** The private key the provider signs ID tokens with (tests re-sign forged tokens with it). */
  signingKey: JWK;
  /**
   * Tests only: rewrites the ID token of each answer of the real token endpoint (after the
   * code and the PKCE verifier were checked), to serve forged tokens. Undefined: untouched.
   */
  rewriteIdToken: ((idToken: string) => Promise<string>) | undefined;
  close(): Promise<void>;
}

/** The auth worker's settings for a provider (OIDC_*), as the local stack hands them on. */
export function ssoWorkerEnv(
  idp: RunningIdentityProvider,
  label = 'Local ID',
): Record<string, string> {
  return {
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.client.id,
    OIDC_CLIENT_SECRET: idp.client.secret,
    OIDC_LABEL: label,
    OIDC_ADMIN_CLAIM: 'groups',
    OIDC_ADMIN_VALUE: ADMIN_GROUP,
  };
}

export async function startIdentityProvider(
  options: IdentityProviderOptions,
): Promise<RunningIdentityProvider> {
  const accounts = options.accounts ?? LOCAL_ACCOUNTS;
  const client = options.client ?? LOCAL_CLIENT;
  const port = options.port || (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = {
    ...(await exportJWK(privateKey)),
    kid: `local-${crypto.randomUUID().slice(0, 8)}`,
    alg: 'RS256',
    use: 'sig',
  };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomUUID()] },
    pkce: { required: () => true },
    // The claims of the asked scopes in the ID token itself, as most providers put them.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      // Groups with the profile, as a provider's group mapper adds them to the ID token.
      profile: ['name', 'preferred_username', 'groups'],
      email: ['email', 'email_verified'],
    },
    scopes: ['openid', 'profile', 'email'],
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: (_: unknown, id: string) => {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          preferred_username: id,
          name: account.name,
          email: account.email,
          email_verified: true,
          groups: account.groups,
        }),
      };
    },
    // Quiet: the provider renders its own errors as pages; nothing here needs its log.
    renderError: (ctx: KoaContext, out: Record<string, string>) => {
      ctx.body = `<!doctype html><title>Sign-in error</title><p>${escape(out.error ?? '')}: ${escape(out.error_description ?? '')}</p>`;
    },
  });

  const handle: RunningIdentityProvider = {
    issuer,
    client,
    signingKey,
    rewriteIdToken: undefined,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && handle.rewriteIdToken && typeof body?.id_token === 'string') {
      body.id_token = await handle.rewriteIdToken(body.id_token);
    }
  });

  const oidc = provider.callback();
  const server = http.createServer((req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url?.split('?')[0] ?? '');
    if (!match) return oidc(req, res);
    interaction(provider, accounts, req, res, Boolean(match[2])).catch((err: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return handle;
}

/** The provider's interaction: a login form, then consent granted at once. */
async function interaction(
  provider: Provider,
  accounts: Record<string, LocalAccount>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  submitted: boolean,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    if (!submitted) return loginPage(res, details.uid);
    const form = new URLSearchParams(await readBody(req));
    const username = form.get('username') ?? '';
    const account = Object.hasOwn(accounts, username) ? accounts[username] : undefined;
    if (!account || account.password !== form.get('password')) {
      return loginPage(res, details.uid, 'Wrong username or password.');
    }
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: username } },
      {
        mergeWithLastSubmission: false,
      },
    );
  }
  // consent: the service's own provider grants what was asked.
  const accountId = details.session?.accountId ?? '';
  const clientId = String(details.params.client_id);
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId }))
    : new provider.Grant({ accountId, clientId });
  const missingScope = details.prompt.details.missingOIDCScope;
  if (Array.isArray(missingScope)) grant.addOIDCScope(missingScope.join(' '));
  const missingClaims = details.prompt.details.missingOIDCClaims;
  if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims as string[]);
  const grantId = await grant.save();
  return provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    {
      mergeWithLastSubmission: true,
    },
  );
}

function loginPage(res: http.ServerResponse, uid: string, error?: string): void {
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Local identity provider</title>
<style>body{font:16px system-ui;max-width:22rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem}p[role=alert]{color:#b00020}</style></head>
<body><h1>Local identity provider</h1>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form></body></html>`;
  res.writeHead(error ? 401 : 200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) req.destroy(new Error('form too large'));
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A free loopback port (for a provider whose URL must be known before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
