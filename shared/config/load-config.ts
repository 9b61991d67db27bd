import { z } from 'zod';
import { AppError } from '../errors/app-error';

type Sections = Record<string, z.ZodType>;
export type ConfigOf<T extends Sections> = { readonly [K in keyof T]: z.output<T[K]> };

/**
 * Builds a worker's one config loader from named sections (database, model, …), each a zod
 * schema read from the whole environment. A section is validated when first used and cached
 * per environment object, so a missing model key breaks the routes that need the model and
 * nothing else. Failures name each variable (never its value) and answer 503 via `onError`.
 */
export function defineConfig<T extends Sections>(sections: T): (env: object) => ConfigOf<T> {
  const cache = new WeakMap<object, ConfigOf<T>>();
  return (env) => {
    let config = cache.get(env);
    if (!config) {
      config = lazySections(sections, env);
      cache.set(env, config);
    }
    return config;
  };
}

function lazySections<T extends Sections>(sections: T, env: object): ConfigOf<T> {
  const config = {} as ConfigOf<T>;
  for (const [name, schema] of Object.entries(sections)) {
    let value: unknown;
    let parsed = false;
    Object.defineProperty(config, name, {
      enumerable: true,
      get() {
        if (!parsed) {
          const result = schema.safeParse(env);
          if (!result.success) throw new ConfigError(result.error.issues);
          value = result.data;
          parsed = true;
        }
        return value;
      },
    });
  }
  return config;
}

/** Every problem of every section at once, for start-up checks; empty when all is valid. */
export function configProblems(sections: Sections, env: object): string[] {
  return Object.values(sections).flatMap((schema) => {
    const result = schema.safeParse(env);
    return result.success ? [] : describeIssues(result.error.issues);
  });
}

function describeIssues(issues: z.core.$ZodIssue[]): string[] {
  return issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
}

export class ConfigError extends AppError {
  constructor(issues: z.core.$ZodIssue[]) {
    const problems = describeIssues(issues).join('; ');
    super('configuration_invalid', { detail: `Configuration invalid: ${problems}` });
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
    z.union([
      z.boolean(),
      z.enum(['true', 'false', '1', '0']).transform((s) => s === 'true' || s === '1'),
    ]),
  );

/** A module's own DSN wins; otherwise the shared DATABASE_URL. */
export function databaseUrl(own: string | undefined, shared: string | undefined) {
  return unset(own) ?? unset(shared);
}
