import { Client, neon, neonConfig, Pool, type ClientConfig } from '@neondatabase/serverless';
import { drizzle as drizzleHttp, type NeonHttpDatabase } from 'drizzle-orm/neon-http';
import { drizzle as drizzlePool, type NeonDatabase } from 'drizzle-orm/neon-serverless';

export interface DatabaseSettings {
  /** postgres:// connection string (Neon in production, the local front in development). */
  url: string;
  /**
   * Local development only: `host:port` of the local stand-in for Neon's proxy (WebSocket
   * `/v1` and HTTP `/sql`), where Neon's own proxy stands in production. Empty on Neon.
   */
  proxy?: string;
}

export type HttpDatabase<S extends Record<string, unknown>> = NeonHttpDatabase<S>;

// Bounded so that a missing database answers 503 instead of hanging the request.
const CONNECT_TIMEOUT_MS = 5_000;
// An HTTP statement that has not answered by then is not going to: 503, not a hung request.
const HTTP_TIMEOUT_MS = 30_000;

const httpDatabases = new WeakMap<object, Map<string, HttpDatabase<Record<string, unknown>>>>();

/**
 * The way a worker runs statements: Neon's SQL-over-HTTP path, one HTTP request per statement
 * or per non-interactive transaction (`db.batch([...])`), no connection to open or close. The
 * client holds no I/O object, so one per isolate serves every request.
 */
export function httpDatabase<S extends Record<string, unknown>>(
  settings: DatabaseSettings,
  schema: S,
): HttpDatabase<S> {
  configureDriver(settings.proxy);
  let byUrl = httpDatabases.get(schema);
  if (!byUrl) httpDatabases.set(schema, (byUrl = new Map()));
  let db = byUrl.get(settings.url);
  if (!db) {
    db = drizzleHttp({ client: neon(settings.url), schema }) as HttpDatabase<
      Record<string, unknown>
    >;
    byUrl.set(settings.url, db);
  }
  return db as HttpDatabase<S>;
}

export interface OpenPool<S extends Record<string, unknown>> {
  db: NeonDatabase<S>;
  /** Ends the pool; pass it to `waitUntil` so closing never delays the response. */
  close(): Promise<void>;
}

/**
 * A session over a WebSocket, for the work that needs one (an interactive transaction, a
 * migration): a Neon `Pool` for this request only (Workers forbid sharing I/O objects across
 * requests), wrapped by drizzle. Everything else takes {@link httpDatabase}.
 */
export function openPool<S extends Record<string, unknown>>(
  settings: DatabaseSettings,
  schema: S,
): OpenPool<S> {
  configureDriver(settings.proxy);
  const pool = new Pool({
    connectionString: settings.url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    Client: ListenedClient,
  });
  // An idle client that loses its socket emits 'error' on the pool; without a listener that
  // would be an uncaught exception. The query that needed it fails on its own.
  pool.on('error', () => {});
  let closed: Promise<void> | undefined;
  return {
    db: drizzlePool({ client: pool, schema }),
    close: () => (closed ??= pool.end().catch(() => {})),
  };
}

function configureDriver(proxy: string | undefined): void {
  neonConfig.fetchFunction = boundedFetch;
  if (proxy) {
    neonConfig.wsProxy = (host, port) => `${proxy}/v1?address=${host}:${port}`;
    neonConfig.fetchEndpoint = () => `http://${proxy}/sql`;
    // The local proxy speaks plain ws:// and http:// to a plain TCP Postgres; Neon's
    // pipelining shortcuts assume its own proxy and break trust/SCRAM logins elsewhere.
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  } else {
    neonConfig.useSecureWebSocket = true;
    neonConfig.pipelineConnect = 'password';
  }
}

/** Each HTTP statement bounded by HTTP_TIMEOUT_MS (the driver sets no timeout of its own). */
function boundedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  return fetch(input, { ...init, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
}

/**
 * A client with an 'error' listener from birth. A connection that dies while the client
 * connects or is checked out (a transaction) emits 'error' on the client itself; unheard, that
 * is an uncaught exception which kills the whole request in workerd. The operation in flight
 * still rejects with the reason, so the request answers 503.
 */
class ListenedClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => {});
  }
}
