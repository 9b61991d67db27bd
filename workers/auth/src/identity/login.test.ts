import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { dummyPasswordHash } from './keys';
import { hashPassword, verifyPassword } from './password';

// Login answers an unknown user by verifying the password against a dummy hash
// (handlers/login.ts: `user?.passwordHash ?? (await dummyPasswordHash())`), so that unknown
// user, wrong password and disabled user all cost one PBKDF2 run. The integration timing test
// sees gross differences only: PBKDF2 is ~15 ms in workerd and a login's database work about
// as much again. This checks the work itself: one derivation at the full iteration count.
// (vi.mock cannot be used to drive the handler without a database: vitest's module mocker
// calls AsyncLocalStorage.disable(), which workerd does not implement.)

let deriveBits: MockInstance<SubtleCrypto['deriveBits']>;

beforeEach(() => {
  deriveBits = vi.spyOn(crypto.subtle, 'deriveBits');
});

afterEach(() => deriveBits.mockRestore());

const derivations = () =>
  deriveBits.mock.calls.map(([params]) => {
    const { name, hash, iterations } = params as SubtleCryptoDeriveKeyAlgorithm;
    return { name, hash, iterations };
  });

const FULL = { name: 'PBKDF2', hash: 'SHA-256', iterations: 100_000 };

describe('the work behind a login check', () => {
  it('the dummy hash is a full-cost hash, made once per isolate', async () => {
    const dummy = await dummyPasswordHash();
    expect(dummy).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(await dummyPasswordHash()).toBe(dummy);
    deriveBits.mockClear();
    await dummyPasswordHash();
    expect(deriveBits).not.toHaveBeenCalled();
  });

  it('checking any password against the dummy hash: false, after one 100,000-iteration run', async () => {
    const dummy = await dummyPasswordHash();
    deriveBits.mockClear();
    expect(await verifyPassword('some-guess', dummy)).toBe(false);
    expect(derivations()).toEqual([FULL]);
  });

  it('checking against a real user’s hash costs the same: one 100,000-iteration run', async () => {
    const stored = await hashPassword('the-right-password');
    deriveBits.mockClear();
    expect(await verifyPassword('a-wrong-password', stored)).toBe(false);
    expect(await verifyPassword('the-right-password', stored)).toBe(true);
    expect(derivations()).toEqual([FULL, FULL]);
  });

  it('no password can match the dummy hash, not even an empty one', async () => {
    const dummy = await dummyPasswordHash();
    for (const guess of ['', ' ', 'admin', 'password', dummy]) {
      expect(await verifyPassword(guess, dummy)).toBe(false);
    }
  });
});
