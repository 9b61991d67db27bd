import { startDatabase, type RunningDatabase } from './database.ts';
import { applyMigrations } from './migrate.ts';
import { describeError } from './describe-error.ts';
import { startModel, type RunningModel } from './model.ts';

/** Everything the workers need locally, started in order and closed in reverse. */
export interface LocalStack {
  database: RunningDatabase;
  model: RunningModel;
  /** The settings every module worker receives (DSNs, relay, model endpoint). */
  workerEnv: Record<string, string>;
  close(): Promise<void>;
}

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
  dataDir?: string;
}): Promise<LocalStack> {
  const { env } = options;
  let database: RunningDatabase;
  try {
    database = await startDatabase({ externalUrl: env.DATABASE_URL, dataDir: options.dataDir });
  } catch (err) {
    throw new StartupError(`cannot open the database: ${describeError(err)}`, { cause: err });
  }
  try {
    await applyMigrations({ url: database.databaseUrl, wsProxy: database.wsProxy });
  } catch (err) {
    await database.close();
    throw new StartupError(`cannot migrate the database: ${describeError(err)}`, {
      cause: err,
    });
  }
  let model: RunningModel;
  try {
    model = await startModel(env);
  } catch (err) {
    await database.close();
    throw new StartupError(`cannot start the model endpoint: ${describeError(err)}`, {
      cause: err,
    });
  }
  const workerEnv: Record<string, string> = {
    DATABASE_URL: database.databaseUrl,
    // Locally both modules share one database; separate DSNs are for deployments.
    AUTH_DATABASE_URL: database.databaseUrl,
    KNOWLEDGE_DATABASE_URL: database.databaseUrl,
    DATABASE_WS_PROXY: database.wsProxy,
    MODEL_BASE_URL: model.baseUrl,
    ...(model.apiKey ? { MODEL_API_KEY: model.apiKey } : {}),
  };
  // Declared secrets that are absent get an explicit empty value (quiet wrangler's warning);
  // present ones reach wrangler from the process environment and are never written to disk.
  for (const secret of ['MODEL_API_KEY', 'OPENAI_API_KEY']) {
    if (!env[secret] && !(secret in workerEnv)) workerEnv[secret] = '';
  }
  return {
    database,
    model,
    workerEnv,
    async close() {
      await model.close();
      await database.close();
    },
  };
}
