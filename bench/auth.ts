// Auth benchmark: login latency (HTTP, PBKDF2 100,000 included), authenticated request latency
// (GET /moduleauth/me: token check + user lookup) and the pure token verification cost.
//
//   npm run dev -- --port 8799            # in another terminal
//   node bench/auth.ts --url http://127.0.0.1:8799
//
// Options: --url (default http://127.0.0.1:8787, loopback only), --logins 50, --me 200,
// --verify 1000, --out bench-results/auth.json. Credentials: ADMIN_USERNAME / ADMIN_PASSWORD
// (defaults admin / admin-password, the local stack's). Runs in Node 22 (type stripping) and
// stops by itself: every request has a timeout and the whole run a deadline.
import { mkdir, writeFile } from 'node:fs/promises';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stats, type Stats } from './stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8787' },
    logins: { type: 'string', default: '50' },
    me: { type: 'string', default: '200' },
    verify: { type: 'string', default: '1000' },
    out: { type: 'string', default: path.join(root, 'bench-results', 'auth.json') },
  },
  allowPositionals: false,
});

const REQUEST_TIMEOUT_MS = 15_000;
const RUN_DEADLINE_MS = 5 * 60_000;

const base = loopbackUrl(values.url!);
const counts = {
  logins: positive(values.logins!, 'logins'),
  me: positive(values.me!, 'me'),
  verify: positive(values.verify!, 'verify'),
};
const admin = {
  username: process.env.ADMIN_USERNAME || 'admin',
  password: process.env.ADMIN_PASSWORD || 'admin-password',
};

const deadline = setTimeout(
  () => fail(`gave up after ${RUN_DEADLINE_MS / 1000} s`),
  RUN_DEADLINE_MS,
);
deadline.unref();

async function request(pathname: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(pathname, base), {
    ...init,
    redirect: 'error',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

async function login(): Promise<{ token: string }> {
  const res = await request('/moduleauth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (res.status !== 200) {
    fail(`login as ${admin.username} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }
  return ((await res.json()) as { data: { token: string } }).data;
}

async function measureLogins(n: number): Promise<{ samples: number[]; token: string }> {
  let token = '';
  const samples: number[] = [];
  await login(); // warm-up: first request of an isolate, key import, dummy hash…
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    token = (await login()).token;
    samples.push(performance.now() - started);
  }
  return { samples, token };
}

async function measureMe(n: number, token: string): Promise<number[]> {
  const samples: number[] = [];
  const headers = { Authorization: `Bearer ${token}` };
  await (await request('/moduleauth/me', { headers })).arrayBuffer();
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await request('/moduleauth/me', { headers });
    await res.arrayBuffer();
    samples.push(performance.now() - started);
    if (res.status !== 200) fail(`GET /moduleauth/me answered ${res.status}`);
  }
  return samples;
}

// shared/ is written for the workers' bundler: its relative imports carry no extension. Let
// Node find those files the same way, for shared/ only.
function allowExtensionlessSharedImports(): void {
  const shared = pathToFileURL(path.join(root, 'shared') + path.sep).href;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const fromShared = context.parentURL?.startsWith(shared) ?? false;
      if (fromShared && specifier.startsWith('.') && path.extname(specifier) === '') {
        return nextResolve(`${specifier}.ts`, context);
      }
      return nextResolve(specifier, context);
    },
  });
}

interface VerifyModule {
  verifyToken(
    token: string,
    policy: { issuer: string; audience: string; keys: unknown[]; maxLifetimeSeconds: number },
  ): Promise<{ ok: boolean; reason?: string }>;
}
interface KeysModule {
  importVerificationKeys(jwksJson: string): Promise<unknown[]>;
}

async function measureVerify(n: number, token: string): Promise<number[]> {
  allowExtensionlessSharedImports();
  // Computed specifiers: the type checker of dev/ (NodeNext) does not follow them into shared/.
  const sharedFile = (file: string) => pathToFileURL(path.join(root, 'shared', file)).href;
  const { verifyToken } = (await import(sharedFile('auth/verify-token.ts'))) as VerifyModule;
  const { importVerificationKeys } = (await import(sharedFile('auth/keys.ts'))) as KeysModule;
  const jwksRes = await request('/moduleauth/.well-known/jwks.json');
  if (jwksRes.status !== 200)
    fail(`GET /moduleauth/.well-known/jwks.json answered ${jwksRes.status}`);
  const policy = {
    issuer: process.env.AUTH_ISSUER || 'kbchat',
    audience: process.env.AUTH_AUDIENCE || 'kbchat',
    keys: await importVerificationKeys(await jwksRes.text()),
    // As the workers read TOKEN_TTL_SECONDS: a token living longer is refused.
    maxLifetimeSeconds: Number(process.env.TOKEN_TTL_SECONDS || 43_200),
  };
  for (let i = 0; i < 50; i++) await verifyToken(token, policy);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const check = await verifyToken(token, policy);
    samples.push(performance.now() - started);
    if (!check.ok) fail(`verifyToken refused the token: ${check.reason}`);
  }
  return samples;
}

/** The PBKDF2 work of one login on its own (Node's WebCrypto, not workerd's). */
async function measureHash(n: number): Promise<number[]> {
  const passwordModule = pathToFileURL(path.join(root, 'workers/auth/src/password.ts')).href;
  const { hashPassword, verifyPassword } = (await import(passwordModule)) as {
    hashPassword(password: string): Promise<string>;
    verifyPassword(password: string, stored: string): Promise<boolean>;
  };
  const stored = await hashPassword('bench-password');
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await verifyPassword('bench-password', stored);
    samples.push(performance.now() - started);
  }
  return samples;
}

function printTable(rows: [string, Stats][]): void {
  const header = ['measurement', 'n', 'median ms', 'p95 ms', 'min ms', 'max ms'];
  const lines = rows.map(([name, s]) => [
    name,
    String(s.n),
    s.median_ms.toFixed(3),
    s.p95_ms.toFixed(3),
    s.min_ms.toFixed(3),
    s.max_ms.toFixed(3),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
}

function loopbackUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(`--url is not a URL: ${raw}`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (!loopback || url.protocol !== 'http:') {
    fail(`--url must be http:// on loopback (127.0.0.0/8, ::1, localhost), not ${raw}`);
  }
  return url;
}

function positive(raw: string, name: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer`);
  return n;
}

function fail(message: string): never {
  console.error(`bench/auth: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const health = await request('/moduleauth/health').catch((err: unknown) =>
    fail(`cannot reach ${base.origin} (is \`npm run dev\` running?): ${String(err)}`),
  );
  if (health.status !== 200) fail(`GET /moduleauth/health answered ${health.status}`);
  await health.arrayBuffer();

  console.log(`auth bench against ${base.origin} as ${admin.username}`);
  const logins = await measureLogins(counts.logins);
  const me = await measureMe(counts.me, logins.token);
  const verify = await measureVerify(counts.verify, logins.token);
  const hash = await measureHash(20);

  const results = {
    target: base.origin,
    node: process.version,
    at: new Date().toISOString(),
    login_http: stats(logins.samples),
    me_http: stats(me),
    verify_token_node: stats(verify),
    pbkdf2_verify_node: stats(hash),
  };
  console.log('');
  printTable([
    ['POST /moduleauth/login (HTTP, PBKDF2 100k)', results.login_http],
    ['GET /moduleauth/me (HTTP, verify + DB)', results.me_http],
    ['verifyToken (Node, jose, in-process)', results.verify_token_node],
    ['verifyPassword (Node, PBKDF2 100k)', results.pbkdf2_verify_node],
  ]);
  await mkdir(path.dirname(values.out!), { recursive: true });
  await writeFile(values.out!, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), values.out!) || values.out}`);
}

await main();
clearTimeout(deadline);
