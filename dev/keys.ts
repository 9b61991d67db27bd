// npm run keys:generate: a new Ed25519 token key pair for a deployment. Prints the two values
// to set as secrets; nothing is written to disk. To rotate, add the new public key to the
// AUTH_PUBLIC_KEYS of every worker first, then switch auth's AUTH_PRIVATE_KEY, then drop the
// old public key once its tokens have expired (TOKEN_TTL_SECONDS).
import { generateTokenKeys } from './stack/keys.ts';

const keys = await generateTokenKeys();
console.log(`# auth only (secret):
AUTH_PRIVATE_KEY='${keys.privateJwk}'

# auth, knowledge and chat (public; kept as a secret so it can change without a code deploy):
AUTH_PUBLIC_KEYS='${keys.publicJwks}'

# e.g.
#   echo "$AUTH_PRIVATE_KEY" | npx wrangler secret put AUTH_PRIVATE_KEY -c workers/auth/wrangler.toml
#   for w in auth knowledge chat; do echo "$AUTH_PUBLIC_KEYS" | npx wrangler secret put AUTH_PUBLIC_KEYS -c workers/$w/wrangler.toml; done`);
