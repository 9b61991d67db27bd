import { startDatabase, type RunningDatabase } from './database.ts';
import { generateTokenKeys, loadOrCreateTokenKeys, type TokenKeys } from './keys.ts';
import { asLogin, grantAppRole, LOCAL_APP_LOGIN } from './app-role.ts';
import { applyMigrations, withPool } from './migrate.ts';
import { LOCAL_ADMIN, runSeeds } from './seed.ts';
import { describeError } from './describe-error.ts';
import { startModel, type RunningModel } from './model.ts';
import { startOcr, type RunningOcr } from './ocr.ts';
import {
  startIdentityProvider,
  ssoWorkerEnv,
  type RunningIdentityProvider,
} from './identity-provider.ts';

/** Everything the workers need locally, started in order and closed in reverse. */
export interface LocalStack {
  database: RunningDatabase;
  /** The first super admin (local defaults unless ADMIN_USERNAME / ADMIN_PASSWORD are set). */
  admin: { username: string; password: string };
  model: RunningModel;
  /** The OCR service (a child process unless OCR_URL names one; none with OCR=off). */
  ocr: RunningOcr;
  /** The local OpenID Connect provider (SSO=local), or undefined. */
  identityProvider: RunningIdentityProvider | undefined;
  /** The settings every module worker receives (DSNs, database proxy, model endpoint). */
  workerEnv: Record<string, string>;
  close(): Promise<void>;
}

const WORKER_VAR_PREFIX = 'KBCHAT_VAR_';

export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * Starts the database (applying migrations), then the model endpoint. Mirrors the spec's
 * start-up rule: a database that cannot be opened or migrated stops everything with a clear
 * message.
 */
export async function startLocalStack(options: {
  env: NodeJS.ProcessEnv;
  /** Where PGlite keeps its data; in memory when absent. */
  dataDir?: string;
  /** Where the token key pair is kept; a fresh pair per start when absent (tests). */
  keysFile?: string;
  /** Where browsers reach the service (http://127.0.0.1:8787): the local provider's callback. */
  publicUrl?: string;
}): Promise<LocalStack> {
  const { env } = options;
  let database: RunningDatabase;
  try {
    database = await startDatabase({ externalUrl: env.DATABASE_URL, dataDir: options.dataDir });
  } catch (err) {
    throw new StartupError(`cannot open the database: ${describeError(err)}`, { cause: err });
  }
  try {
    await applyMigrations({ url: database.databaseUrl, proxy: database.proxy }, env);
  } catch (err) {
    await database.close();
    throw new StartupError(`cannot migrate the database: ${describeError(err)}`, {
      cause: err,
    });
  }
  const admin = {
    username: env.ADMIN_USERNAME || LOCAL_ADMIN.username,
    password: env.ADMIN_PASSWORD || LOCAL_ADMIN.password,
  };
  try {
    await runSeeds({ url: database.databaseUrl, proxy: database.proxy }, admin);
  } catch (err) {
    await database.close();
    throw new StartupError(`cannot set up the database: ${describeError(err)}`, { cause: err });
  }
  // The workers log in as a member of the application role, so row-level security applies to
  // them (migration 0009). Only for the embedded database: a given DATABASE_URL is used as is.
  let workerDatabaseUrl = database.databaseUrl;
  if (!env.DATABASE_URL) {
    try {
      await withPool({ url: database.databaseUrl, proxy: database.proxy }, (db) =>
        grantAppRole(db, LOCAL_APP_LOGIN, { create: true }),
      );
    } catch (err) {
      await database.close();
      throw new StartupError(`cannot set up the workers' role: ${describeError(err)}`, {
        cause: err,
      });
    }
    workerDatabaseUrl = asLogin(database.databaseUrl, LOCAL_APP_LOGIN);
  }
  const keys: TokenKeys = options.keysFile
    ? await loadOrCreateTokenKeys(options.keysFile)
    : await generateTokenKeys();
  let model: RunningModel;
  try {
    model = await startModel(env);
  } catch (err) {
    await database.close();
    throw new StartupError(`cannot start the model endpoint: ${describeError(err)}`, {
      cause: err,
    });
  }
  let ocr: RunningOcr;
  try {
    ocr = await startOcr(env);
  } catch (err) {
    await model.close();
    await database.close();
    throw new StartupError(`cannot start the OCR service: ${describeError(err)}`, { cause: err });
  }
  // SSO=local: single sign-on against a real OpenID provider of our own (docs/sso.md).
  let identityProvider: RunningIdentityProvider | undefined;
  if (env.SSO === 'local') {
    try {
      identityProvider = await startIdentityProvider({
        port: env.SSO_PORT ? Number(env.SSO_PORT) : undefined,
        redirectUris: [`${options.publicUrl ?? 'http://127.0.0.1:8787'}/moduleauth/sso/callback`],
      });
    } catch (err) {
      await ocr.close();
      await model.close();
      await database.close();
      throw new StartupError(`cannot start the local identity provider: ${describeError(err)}`, {
        cause: err,
      });
    }
  }
  const workerEnv: Record<string, string> = {
    DATABASE_URL: workerDatabaseUrl,
    // Locally the modules share one database; separate DSNs are for deployments.
    AUTH_DATABASE_URL: workerDatabaseUrl,
    KNOWLEDGE_DATABASE_URL: workerDatabaseUrl,
    CHAT_DATABASE_URL: workerDatabaseUrl,
    DATABASE_PROXY: database.proxy,
    // Under wrangler dev any client can send CF-Connecting-IP: it is not the client's address.
    TRUST_CF_CONNECTING_IP: 'false',
    AUTH_PRIVATE_KEY: keys.privateJwk,
    AUTH_PUBLIC_KEYS: keys.publicJwks,
    MODEL_BASE_URL: model.baseUrl,
    ...(model.apiKey ? { MODEL_API_KEY: model.apiKey } : {}),
    // Chat's health tells the web app that answers are the stand-in's extracts.
    CHAT_MODEL_OFFLINE: String(model.offline),
    // Without a service, OCR is off: the OCR_SERVICE binding (the container) is never reached.
    ...(ocr.baseUrl ? { OCR_URL: ocr.baseUrl } : { OCR: 'off' }),
    // PGlite serves one session at a time: a chunk step's inserts into the HNSW index go in
    // transactions of about 20 ms, so that interactive requests never wait behind a whole step
    // (bench/ingest-contention.ts). A Postgres server (Neon) runs sessions side by side.
    ...(env.DATABASE_URL ? {} : { INGEST_INSERT_HOLD_MS: '20' }),
    ...(identityProvider ? ssoWorkerEnv(identityProvider) : {}),
  };
  // KBCHAT_VAR_<NAME>=value sets a worker variable for this stack (tests and benchmarks tune
  // e.g. KBCHAT_VAR_INGEST_STALE_SECONDS this way).
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(WORKER_VAR_PREFIX) && value !== undefined) {
      workerEnv[name.slice(WORKER_VAR_PREFIX.length)] = value;
    }
  }
  // Declared secrets that are absent get an explicit empty value (quiet wrangler's warning);
  // present ones reach wrangler from the process environment and are never written to disk.
  for (const secret of ['MODEL_API_KEY', 'OPENAI_API_KEY', 'OCR_API_KEY', 'OIDC_CLIENT_SECRET']) {
    if (!env[secret] && !(secret in workerEnv)) workerEnv[secret] = '';
  }
  return {
    database,
    admin,
    model,
    ocr,
    identityProvider,
    workerEnv,
    async close() {
      await identityProvider?.close();
      await ocr.close();
      await model.close();
      await database.close();
    },
  };
}
