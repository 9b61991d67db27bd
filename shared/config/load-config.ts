import { z } from 'zod';
import { AppError } from '../errors/app-error';

/**
 * Builds a worker's one config loader: validates the environment against a zod schema once
 * per environment object and returns typed settings. Missing or malformed values fail with a
 * message naming each variable (never its value), answered as a 503 by `onError`.
 */
export function defineConfig<S extends z.ZodType>(
  schema: S,
): (env: object) => z.output<S> {
  const cache = new WeakMap<object, z.output<S>>();
  return (env) => {
    const cached = cache.get(env);
    if (cached) return cached;
    const parsed = schema.safeParse(env);
    if (!parsed.success) throw new ConfigError(parsed.error.issues);
    cache.set(env, parsed.data);
    return parsed.data;
  };
}

export class ConfigError extends AppError {
  constructor(issues: z.core.$ZodIssue[]) {
    const problems = issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
    super(503, 'configuration_invalid', `Configuration invalid: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Empty strings in `[vars]` mean "not set". */
const unset = (v: unknown) => (v === '' ? undefined : v);

export const optionalString = () => z.preprocess(unset, z.string().optional());

export const url = () => z.preprocess(unset, z.url());

export const optionalUrl = () => z.preprocess(unset, z.url().optional());

export const positiveInt = (fallback: number) =>
  z.preprocess(unset, z.coerce.number().int().positive().default(fallback));

export const number = (fallback: number) =>
  z.preprocess(unset, z.coerce.number().finite().default(fallback));

export const boolean = (fallback: boolean) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? fallback : v),
    z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((s) => s === 'true' || s === '1')]),
  );

/** A module's own DSN wins; otherwise the shared DATABASE_URL. */
export function databaseUrl(own: string | undefined, shared: string | undefined) {
  return unset(own) ?? unset(shared);
}
