import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
  ])('hashes the FIPS 180-2 vector %j', async (text, digest) => {
    expect(await sha256Hex(ascii(text))).toBe(digest);
  });

  it('hashes one million "a" (the long FIPS vector)', async () => {
    const bytes = new Uint8Array(1_000_000).fill(0x61);

    expect(await sha256Hex(bytes)).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('hashes only the bytes a view covers, not its whole buffer', async () => {
    const buffer = ascii('xxabcxx');

    expect(await sha256Hex(buffer.subarray(2, 5))).toBe(await sha256Hex(ascii('abc')));
  });

  it('accepts an ArrayBuffer', async () => {
    const { buffer } = new Uint8Array([0x61, 0x62, 0x63]);

    expect(await sha256Hex(buffer)).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
