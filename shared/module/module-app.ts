import { Hono, type Env as HonoEnv } from 'hono';
import { onError, onNotFound } from '../errors/on-error';
import { requestContext } from '../log/request-context';

export interface ModuleOptions {
  /** Path prefix on the shared domain, e.g. `/moduleauth`. */
  prefix: string;
  /** Default module name (a dotted identifier ending in `ModuleAuth` and so on). */
  defaultName: string;
  /** Environment variable that overrides the name. */
  nameVariable: string;
}

/** The module's name: the environment variable wins over the default, as in the spec. */
export function moduleName(env: object, options: ModuleOptions): string {
  const value = (env as Record<string, unknown>)[options.nameVariable];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : options.defaultName;
}

/**
 * A worker's Hono app mounted under its prefix, with what every module shares: request ids,
 * structured logs, the one error shape.
 */
export function createModuleApp<E extends HonoEnv>(options: ModuleOptions) {
  const app = new Hono<E>().basePath(options.prefix);
  app.use(
    requestContext((env) => ({
      module: moduleName(env, options),
      logLevel: (env as { LOG_LEVEL?: string }).LOG_LEVEL,
    })),
  );
  app.onError(onError);
  app.notFound(onNotFound);
  return app;
}
