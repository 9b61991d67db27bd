// Passwords: PBKDF2-HMAC-SHA256 through WebCrypto, a random 16-byte salt per user, stored as
// `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url) so the cost can be raised later.
// Deployed Workers refuse PBKDF2 above 100,000 iterations (local workerd allows more).
export const PASSWORD_ALGORITHM = 'pbkdf2-sha256';
export const PASSWORD_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PASSWORD_ITERATIONS);
  return [PASSWORD_ALGORITHM, PASSWORD_ITERATIONS, encode(salt), encode(hash)].join('$');
}

/** Compares in constant time; a stored value of an unknown format never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.iterations);
  return constantTimeEqual(actual, parsed.hash);
}

/** True when the stored hash was made with other parameters than the current ones. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  return !parsed || parsed.iterations !== PASSWORD_ITERATIONS;
}

function parseStored(stored: string) {
  const [algorithm, iterations, salt, hash] = stored.split('$');
  const count = Number(iterations);
  if (algorithm !== PASSWORD_ALGORITHM || !salt || !hash) return undefined;
  if (!Number.isInteger(count) || count < 1 || count > PASSWORD_ITERATIONS) return undefined;
  try {
    return { iterations: count, salt: decode(salt), hash: decode(hash) };
  } catch {
    return undefined; // not base64url: a value of an unknown format never matches
  }
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
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
    HASH_BYTES * 8,
  );
  return new Uint8Array(bits);
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ (b[i % b.length] ?? 0);
  return diff === 0;
}

function encode(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function decode(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}
