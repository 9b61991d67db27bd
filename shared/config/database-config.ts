import { z } from 'zod';
import type { DatabaseSettings } from '../db/database';
import { databaseUrl, optionalString } from './load-config';

/** The database settings of a module: its own DSN variable wins over the shared DATABASE_URL. */
export function databaseConfig(ownVariable: string): z.ZodType<DatabaseSettings> {
  const missing = `set ${ownVariable} or DATABASE_URL to a postgres:// connection string`;
  return z.preprocess(
    (env) => {
      const vars = env as Record<string, string | undefined>;
      return {
        url: databaseUrl(vars[ownVariable], vars.DATABASE_URL),
        proxy: vars.DATABASE_PROXY,
      };
    },
    z.object({
      url: z.string({ error: missing }).regex(/^postgres(ql)?:\/\/\S+$/, { error: missing }),
      proxy: optionalString(),
    }),
  );
}
