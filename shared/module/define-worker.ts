import { createAuthorize } from '../auth/authorize';
import type { Principal } from '../auth/roles';
import { settleSession } from '../auth/session';
import type { TokenVerification } from '../config/token-config';
import type { DatabaseSettings } from '../db/database';
import { checkSession, keySession } from '../db/request-db';
import {
  mountService,
  rpcEntrypoint,
  type MountOptions,
  type RpcEntrypointClass,
  type ServiceImpl,
} from '../service';
import type { Service } from '../service/types';
import { createModuleApp, type ModuleOptions } from './module-app';

/** What a module worker is: its declared service, how it answers it, and its settings. */
export interface WorkerDefinition<Env extends object, S extends Service> {
  module: ModuleOptions;
  service: S;
  /** The service map: each declared method's handler (the worker's service.ts). */
  impl: ServiceImpl<S, Env, Principal>;
  /** The worker's token verification and database settings, from its one config loader. */
  settings: (env: Env) => { verification: TokenVerification; database: DatabaseSettings };
  bodyLimit?: MountOptions<{ Bindings: Env }, Principal>['bodyLimit'];
  onStreamError?: MountOptions<{ Bindings: Env }, Principal>['onStreamError'];
}

/**
 * The wiring every module worker shares, in one place: the token and key check (verified here,
 * the session settled by the statements the call runs, or by the check alone), the module's
 * Hono app with its service's routes, and its RPC entrypoint. A worker's index.ts is this call
 * and its exports.
 */
export function defineWorker<Env extends object, S extends Service>(
  definition: WorkerDefinition<Env, S>,
) {
  const database = (env: Env) => definition.settings(env).database;
  const authorize = createAuthorize<Env>({
    verification: (env) => definition.settings(env).verification,
    checkSession: (access, claim) => checkSession(database(access.env), claim),
    resolveKey: (access, hash) => keySession(database(access.env), hash),
  });
  const app = createModuleApp<{ Bindings: Env }>(definition.module);
  mountService(app, definition.service, definition.impl, {
    authorize,
    settle: settleSession,
    bodyLimit: definition.bodyLimit,
    onStreamError: definition.onStreamError,
  });
  return {
    app,
    /** The class to export for other workers' service bindings: the methods marked @grpc. */
    rpcEntrypoint: (): RpcEntrypointClass<S, Env> =>
      rpcEntrypoint(definition.service, definition.impl, { authorize, settle: settleSession }),
  };
}
