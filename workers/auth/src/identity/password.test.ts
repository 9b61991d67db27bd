import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  needsRehash,
  PASSWORD_ALGORITHM,
  PASSWORD_ITERATIONS,
  verifyPassword,
} from './password';

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/** A stored value made outside password.ts, with any iteration count. */
async function storedWith(password: string, iterations: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(password),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    256,
  );
  return ['pbkdf2-sha256', iterations, b64url(salt), b64url(new Uint8Array(bits))].join('$');
}

const parse = (stored: string) => {
  const [algorithm, iterations, salt, hash] = stored.split('$');
  return { algorithm, iterations: Number(iterations), salt: salt!, hash: hash! };
};

describe('password hashing', () => {
  it('is pinned at exactly 100,000 PBKDF2 iterations (deployed Workers refuse more)', async () => {
    expect(PASSWORD_ITERATIONS).toBe(100_000);
    const stored = await hashPassword('correct horse battery staple');
    expect(parse(stored).iterations).toBe(100_000);
  });

  it('stores pbkdf2-sha256$<iterations>$<16-byte salt>$<32-byte hash> in base64url', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(PASSWORD_ALGORITHM).toBe('pbkdf2-sha256');
    expect(stored).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain('correct horse');
  });

  it('uses a new salt for every hash, so equal passwords give different hashes', async () => {
    const stored = await Promise.all([1, 2, 3].map(() => hashPassword('same password')));
    expect(new Set(stored.map((s) => parse(s).salt)).size).toBe(3);
    expect(new Set(stored.map((s) => parse(s).hash)).size).toBe(3);
  });

  it('verifies the right password and refuses any other', async () => {
    const stored = await hashPassword('s3cret-password');
    expect(await verifyPassword('s3cret-password', stored)).toBe(true);
    expect(await verifyPassword('s3cret-passwore', stored)).toBe(false);
    expect(await verifyPassword('S3cret-password', stored)).toBe(false);
    expect(await verifyPassword('s3cret-password ', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('handles non-ASCII passwords byte-exactly', async () => {
    const stored = await hashPassword('pässwörd-密码-🔑');
    expect(await verifyPassword('pässwörd-密码-🔑', stored)).toBe(true);
    // The same letters in another Unicode normal form are other bytes.
    expect(await verifyPassword('pässwörd-密码-🔑'.normalize('NFD'), stored)).toBe(false);
  });

  it('verifies a hash made with fewer iterations and asks for a rehash', async () => {
    const stored = await storedWith('older-password', 1_000);
    expect(await verifyPassword('older-password', stored)).toBe(true);
    expect(await verifyPassword('other-password', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
    expect(needsRehash(await hashPassword('older-password'))).toBe(false);
  });

  it('never matches a hash above the cap (it could not be verified on Workers)', async () => {
    const stored = await storedWith('too-costly', 100_001);
    expect(await verifyPassword('too-costly', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['the plain password itself', 'plain-password'],
    ['another algorithm', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['pbkdf2 with SHA-1', 'pbkdf2-sha1$100000$AAAAAAAAAAAAAAAAAAAAAA$AAAA'],
    ['no iteration count', 'pbkdf2-sha256$$AAAAAAAAAAAAAAAAAAAAAA$AAAA'],
    ['a non-numeric count', 'pbkdf2-sha256$many$AAAAAAAAAAAAAAAAAAAAAA$AAAA'],
    ['zero iterations', 'pbkdf2-sha256$0$AAAAAAAAAAAAAAAAAAAAAA$AAAA'],
    ['a fractional count', 'pbkdf2-sha256$1000.5$AAAAAAAAAAAAAAAAAAAAAA$AAAA'],
    ['no salt', 'pbkdf2-sha256$100000$$AAAA'],
    ['no hash', 'pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA$'],
    ['missing parts', 'pbkdf2-sha256$100000'],
  ])('a stored value of an unknown format (%s) never matches', async (_, stored) => {
    expect(await verifyPassword('plain-password', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('a hash cut short or made longer never matches', async () => {
    const stored = await hashPassword('right-password');
    const { hash } = parse(stored);
    expect(await verifyPassword('right-password', stored.slice(0, -hash.length / 2))).toBe(false);
    expect(await verifyPassword('right-password', `${stored}AAAA`)).toBe(false);
    // Right hash, another salt.
    const [a, n, , h] = stored.split('$');
    expect(
      await verifyPassword('right-password', [a, n, 'AAAAAAAAAAAAAAAAAAAAAA', h].join('$')),
    ).toBe(false);
  });

  // A damaged row (base64url that does not decode) is "an unknown format" too: it must be a
  // plain non-match (401 at login), not an exception (500, and a different timing).
  it('a stored value whose salt or hash is not base64url never matches and never throws', async () => {
    await expect(
      verifyPassword('plain-password', 'pbkdf2-sha256$100000$!!not base64!!$AAAA'),
    ).resolves.toBe(false);
    await expect(
      verifyPassword('plain-password', 'pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA$%%%'),
    ).resolves.toBe(false);
    expect(() => needsRehash('pbkdf2-sha256$100000$!!not base64!!$AAAA')).not.toThrow();
  });
});
