import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import { describe, expect, it } from 'vitest';

// What a deploy publishes: only the gateway has a public address. The module workers are
// reached through its service bindings; a workers.dev host or a preview URL of their own would
// be a way around it (and around anything it adds at the front door).
const root = path.resolve(import.meta.dirname, '..');

describe('the deployed shape', () => {
  it.each(['auth', 'knowledge', 'chat'])(
    '%s has no workers.dev host and no preview URLs',
    (name) => {
      const config = unstable_readConfig({
        config: path.join(root, 'workers', name, 'wrangler.toml'),
      });
      expect(config.workers_dev).toBe(false);
      expect(config.preview_urls).toBe(false);
    },
  );
});
