import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';

export interface TokenKeys {
  /** AUTH_PRIVATE_KEY: the private Ed25519 JWK, for auth only. */
  privateJwk: string;
  /** AUTH_PUBLIC_KEYS: a JWKS with the public key(s), for every verifier. */
  publicJwks: string;
}

/** A new Ed25519 signing key pair with a kid. */
export async function generateTokenKeys(): Promise<TokenKeys> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', {
    crv: 'Ed25519',
    extractable: true,
  });
  const kid = `kbchat-${new Date().toISOString().slice(0, 10)}-${crypto.randomUUID().slice(0, 8)}`;
  const meta = { kid, alg: 'EdDSA', use: 'sig' };
  return {
    privateJwk: JSON.stringify({ ...(await exportJWK(privateKey)), ...meta }),
    publicJwks: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), ...meta }] }),
  };
}

/** Local dev: the key pair made on first start, kept in the git-ignored data folder. */
export async function loadOrCreateTokenKeys(file: string): Promise<TokenKeys> {
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as TokenKeys;
  const keys = await generateTokenKeys();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  await chmod(file, 0o600);
  return keys;
}
