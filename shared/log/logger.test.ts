import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createLogger, redactText } from './logger';

// Tokens must never reach a log line: other workers' stdout is out of reach of an integration
// test, so the logger itself is checked here. Key-name redaction (a field called `password`,
// `token`, …) is covered from the auth side in workers/auth/src/log-redaction.test.ts; this file
// covers the secrets recognised by their VALUE wherever they appear — in the message, in
// fields with innocent names, nested, in the base and child fields.

// Shaped like the service's own tokens (EdDSA JWT) and hashes, but not real ones.
const JWT =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImtiLTEiLCJ0eXAiOiJKV1QifQ' +
  '.eyJzdWIiOiI5ZjFjIiwicm9sZSI6IlNVUEVSX0FETUlOIiwiZXhwIjoxOTAwMDAwMDAwfQ' +
  '.b3BhcXVlLXNpZ25hdHVyZS1ieXRlcy1ub3QtYS1yZWFsLW9uZQ';
const HASH =
  'pbkdf2-sha256$100000$Q2hlY2tTYWx0MTIzNDU2Nw$ZmFrZWhhc2hmYWtlaGFzaGZha2VoYXNoZmFrZWhhc2g';
const OPAQUE = 'sk-live-0123456789abcdefOPAQUE';

let lines: string[];
let spies: MockInstance[];

beforeEach(() => {
  lines = [];
  spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    }),
  );
});

afterEach(() => spies.forEach((spy) => spy.mockRestore()));

/** The secret-looking pieces a line still contains. */
function leaks(line: string): string[] {
  const found: string[] = [];
  if (line.includes(JWT)) found.push('JWT');
  for (const segment of JWT.split('.')) if (line.includes(segment)) found.push('JWT segment');
  if (line.includes(HASH) || line.includes('pbkdf2-sha256$')) found.push('hash');
  if (line.includes(OPAQUE)) found.push('bearer token');
  return [...new Set(found)];
}

const everyLevel = (log: ReturnType<typeof createLogger>, msg: string, fields?: object) => {
  log.debug(msg, fields as Record<string, unknown>);
  log.info(msg, fields as Record<string, unknown>);
  log.warn(msg, fields as Record<string, unknown>);
  log.error(msg, fields as Record<string, unknown>);
};

describe('secrets in the message', () => {
  it.each([
    ['a JWT', `token check failed for ${JWT}`],
    ['a Bearer header', `upstream refused Authorization: Bearer ${JWT}`],
    ['an opaque Bearer token', `upstream refused Authorization: Bearer ${OPAQUE}`],
    ['a password hash', `Failed query: update users set password_hash = $1\nparams: ${HASH},2026`],
    ['all three at once', `${JWT} / Bearer ${OPAQUE} / ${HASH}`],
    ['a JWT in a query string', `GET /moduleauth/me?t=${JWT}&x=1`],
    ['a JWT inside JSON text', JSON.stringify({ identity: { token: JWT } })],
  ])('%s is redacted at every level', (_, msg) => {
    everyLevel(createLogger({ module: 'm' }, 'debug'), msg);
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(leaks(line)).toEqual([]);
      expect(line).toContain('[redacted]');
    }
  });

  it('keeps the rest of the message', () => {
    createLogger({ module: 'm' }).info(`refused ${JWT} for alice`);
    expect(JSON.parse(lines[0]!).msg).toBe('refused [redacted] for alice');
  });

  it('leaves ordinary text alone', () => {
    const text = 'token expired for user alice; hash mismatch on page 3 of report.pdf';
    createLogger({ module: 'm' }).info(text, { note: text });
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: text, note: text });
  });
});

describe('secrets in fields with innocent names', () => {
  it('top-level string values', () => {
    createLogger({ module: 'm' }).warn('x', {
      header: `Bearer ${OPAQUE}`,
      jwt_seen: JWT,
      row: HASH,
    });
    expect(leaks(lines[0]!)).toEqual([]);
  });

  it('nested objects and arrays, to the depth the logger prints', () => {
    createLogger({ module: 'm' }).error('request failed', {
      request: {
        headers: [
          ['x-auth', `Bearer ${OPAQUE}`],
          ['x-forwarded-token', JWT],
        ],
        body: { note: `copied ${HASH}`, list: [{ deeper: [JWT] }] },
      },
      error: `DrizzleQueryError: Failed query\nparams: ${HASH}`,
    });
    expect(leaks(lines[0]!)).toEqual([]);
    const parsed = JSON.parse(lines[0]!);
    expect(parsed.request.body.list[0].deeper[0]).toBe('[redacted]');
  });

  it('deeper than the logger prints: dropped, not printed', () => {
    let value: unknown = { leaf: JWT, hash: HASH, bearer: `Bearer ${OPAQUE}` };
    for (let depth = 0; depth < 20; depth++) value = { level: depth, next: value };
    createLogger({ module: 'm' }).info('deep', { value });
    expect(leaks(lines[0]!)).toEqual([]);
    expect(lines[0]).toContain('[too deep]');
  });

  it('in the base fields and in child loggers', () => {
    const log = createLogger({ module: 'm', caller: `Bearer ${OPAQUE}` });
    log.info('a');
    log.child({ identity: { raw: JWT }, stored: [HASH] }).info('b');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(leaks(line)).toEqual([]);
  });

  it('Error objects, URLs and Headers are not printed with what they carry', () => {
    createLogger({ module: 'm' }).error('x', {
      err: new Error(`Bearer ${OPAQUE} ${JWT}`),
      url: new URL(`https://kb.test/moduleauth/me?t=${JWT}`),
      headers: new Headers({ Authorization: `Bearer ${OPAQUE}` }),
    });
    expect(leaks(lines[0]!)).toEqual([]);
  });

  it('a line is still one valid JSON object after redaction', () => {
    createLogger({ module: 'm' }).info(`"quoted ${JWT}"\n`, { a: `\\${HASH}"` });
    expect(() => JSON.parse(lines[0]!)).not.toThrow();
    expect(lines[0]!.split('\n')).toHaveLength(1);
  });
});

describe('API keys', () => {
  // Shaped like newApiKey()'s keys (shared/auth/api-key.ts), but not a real one.
  const KEY = 'kbc_Zm9vYmFyLW5vdC1hLXJlYWwta2V5LWF0LWFsbC0xMjM0';

  it('are redacted in the message, in any field (`key` above all) and nested', () => {
    createLogger({ module: 'm' }).info(`created ${KEY} for alice`, {
      key: KEY,
      answer: { data: { key: KEY, prefix: 'kbc_Zm9vYmFy' } },
      url: `/moduleknowledge/list?t=${KEY}`,
    });
    expect(lines[0]).not.toContain(KEY.slice(4));
    expect(JSON.parse(lines[0]!)).toMatchObject({
      msg: 'created [redacted] for alice',
      key: '[redacted]',
    });
  });

  // The local dev server prints each request's URL; a client may put a key anywhere in it,
  // percent-encoded too (dev/stack/dev-log.ts applies redactText to its every line).
  it.each([
    ['in a path', `GET /moduleknowledge/${KEY} 404 Not Found (3ms)`],
    ['percent-encoded in a path', `GET /moduleknowledge/${KEY.replace('_', '%5F')} 404`],
    [
      'wholly percent-encoded',
      `GET /x/${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')} 404`,
    ],
    ['doubly encoded', `GET /x/${KEY.replace('_', '%255F')} 404`],
    ['a JWT percent-encoded in a query', `GET /x?t=${JWT.replaceAll('.', '%2E')} 200`],
  ])('are redacted %s', (_, line) => {
    const redacted = redactText(line);
    expect(redacted).toContain('[redacted]');
    expect(redacted).not.toContain(KEY.slice(4, 20));
    for (const segment of JWT.split('.')) expect(redacted).not.toContain(segment);
  });

  it('leave other percent-encoded text as it was', () => {
    const line = 'GET /moduleknowledge/download?name=%E6%96%87%E4%BB%B6.pdf 200';
    expect(redactText(line)).toBe(line);
  });
});

describe('gaps', () => {
  // RFC 7235: the scheme is case-insensitive, and the service accepts `bearer` (authorize.ts).
  it('a lower- or upper-case bearer scheme with an opaque token is redacted too', () => {
    expect(redactText(`authorization: bearer ${OPAQUE}`)).not.toContain(OPAQUE);
    expect(redactText(`AUTHORIZATION: BEARER ${OPAQUE}`)).not.toContain(OPAQUE);
  });

  // AUTH_PRIVATE_KEY is the one secret that signs every token. Its name matches none of the
  // secret key patterns (pass, secret, token, authorization, api key, hash, dsn, database_url)
  // and its value (a JWK) none of the value patterns.
  it('a private key is redacted by its field name', () => {
    const jwk = JSON.stringify({
      kty: 'OKP',
      crv: 'Ed25519',
      d: 'PRIVATE-SCALAR-d-value',
      x: 'pub',
    });
    createLogger({ module: 'm' }).error('signing failed', {
      AUTH_PRIVATE_KEY: jwk,
      privateKey: jwk,
      private_key: jwk,
    });
    expect(lines[0]).not.toContain('PRIVATE-SCALAR-d-value');
  });
});
