import { Client, neonConfig, Pool, type ClientConfig } from '@neondatabase/serverless';
import { drizzle, type NeonDatabase } from 'drizzle-orm/neon-serverless';

export interface DatabaseSettings {
  /** postgres:// connection string (Neon in production, the local front in development). */
  url: string;
  /**
   * Local development only: `host:port` of the WebSocket relay that stands where Neon's own
   * proxy stands in production. Empty on Neon.
   */
  wsProxy?: string;
}

export interface OpenDatabase<S extends Record<string, unknown>> {
  db: NeonDatabase<S>;
  /** Ends the pool; pass it to `waitUntil` so closing never delays the response. */
  close(): Promise<void>;
}

// Bounded so that a missing database answers 503 instead of hanging the request.
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The one way a worker reaches Postgres: a Neon WebSocket `Pool` for this request only
 * (Workers forbid sharing I/O objects across requests), wrapped by drizzle.
 */
export function openDatabase<S extends Record<string, unknown>>(
  settings: DatabaseSettings,
  schema: S,
): OpenDatabase<S> {
  configureDriver(settings.wsProxy);
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
    db: drizzle({ client: pool, schema }),
    close: () => (closed ??= pool.end().catch(() => {})),
  };
}

function configureDriver(wsProxy: string | undefined): void {
  if (wsProxy) {
    neonConfig.wsProxy = (host, port) => `${wsProxy}/v1?address=${host}:${port}`;
    // The local relay speaks plain ws:// to a plain TCP Postgres; Neon's pipelining shortcuts
    // assume its own proxy and break trust/SCRAM logins elsewhere.
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  } else {
    neonConfig.useSecureWebSocket = true;
    neonConfig.pipelineConnect = 'password';
  }
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
