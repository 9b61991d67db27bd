import pg from 'pg';

/**
 * The connections behind the local SQL-over-HTTP endpoint (sql-over-http.ts), one pool per
 * connection string. Two waits, two bounds: opening a connection (a database that is not there
 * fails within CONNECT_TIMEOUT_MS), and waiting for a pooled one while others use them (a busy
 * database: {@link checkOutWithin}, as long as the front lets a client wait for its turn).
 */

// Connections per database user: statements queue at the front anyway; a few keep a batch's
// round trips from waiting behind another's.
const POOL_SIZE = 4;
const CONNECT_TIMEOUT_MS = 5_000;

// Every value as the text Postgres sent: the driver parses the types itself.
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

export function sqlPool(connectionString: string): pg.Pool {
  // Not the pool's connectionTimeoutMillis: pg-pool applies it to waiting for a busy
  // connection too, which refused statements queued for more than 5 s behind others.
  const pool = new pg.Pool({
    connectionString,
    max: POOL_SIZE,
    types: RAW_TEXT,
    Client: ConnectBoundedClient,
  });
  pool.on('error', () => undefined); // an idle connection that dies is simply replaced
  return pool;
}

/** A connection whose opening is bounded (the pool hands its own options to the constructor). */
class ConnectBoundedClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/** No pooled connection freed up in time: the database is overloaded, not gone. */
export class Busy extends Error {
  override name = 'Busy';
}

/** A pooled connection, or {@link Busy} when none is free within `waitMs`. */
export async function checkOutWithin(pool: pg.Pool, waitMs: number): Promise<pg.PoolClient> {
  const connecting = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  let gaveUp = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      gaveUp = true;
      reject(
        new Busy(`the local database is busy: no connection for this request within ${waitMs} ms`),
      );
    }, waitMs);
  });
  try {
    return await Promise.race([connecting, deadline]);
  } finally {
    clearTimeout(timer);
    // A connection that frees up after the refusal goes straight back to the pool.
    if (gaveUp) {
      connecting.then(
        (client) => client.release(),
        () => undefined,
      );
    }
  }
}
