import { describe, expect, it } from 'vitest';
import { apiKeyHash, apiKeyPrefix, isApiKey, newApiKey } from './api-key';

describe('API keys', () => {
  it('are kbc_ and 43 base64url characters, and never the same twice', () => {
    const keys = Array.from({ length: 200 }, newApiKey);
    for (const key of keys) {
      expect(key).toMatch(/^kbc_[A-Za-z0-9_-]{43}$/);
      expect(isApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('carry 32 random bytes', () => {
    const body = newApiKey().slice(4).replaceAll('-', '+').replaceAll('_', '/');
    expect(atob(`${body}=`)).toHaveLength(32);
  });

  it.each([
    ['empty', ''],
    ['the mark alone', 'kbc_'],
    ['too short', `kbc_${'a'.repeat(42)}`],
    ['too long', `kbc_${'a'.repeat(44)}`],
    ['another mark', `kbd_${'a'.repeat(43)}`],
    ['upper-case mark', `KBC_${'a'.repeat(43)}`],
    ['base64 padding', `kbc_${'a'.repeat(42)}=`],
    ['standard base64', `kbc_${'a'.repeat(42)}+`],
    ['a space inside', `kbc_${'a'.repeat(21)} ${'a'.repeat(21)}`],
    ['a trailing newline', `kbc_${'a'.repeat(43)}\n`],
    ['a JWT', 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('refuse the shape of %s', (_, token) => {
    expect(isApiKey(token)).toBe(false);
  });

  it('are stored as SHA-256 hex', async () => {
    // SHA-256("abc"), FIPS 180-2 appendix B.1.
    expect(await apiKeyHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const key = newApiKey();
    const hash = await apiKeyHash(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await apiKeyHash(key)).toBe(hash);
    expect(await apiKeyHash(newApiKey())).not.toBe(hash);
  });

  it('show their first 12 characters in lists', () => {
    const key = newApiKey();
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 12));
    expect(apiKeyPrefix(key)).toMatch(/^kbc_[A-Za-z0-9_-]{8}$/);
  });
});
