import type http from 'node:http';
import pg from 'pg';
import { QUEUE_TIMEOUT_MS } from './session-front.ts';
import { Busy, checkOutWithin, sqlPool } from './sql-pool.ts';

/**
 * The local stand-in for Neon's SQL-over-HTTP endpoint (`POST /sql`), so that the workers'
 * one-shot statements and non-interactive transactions (`neon()`, `sql.transaction([…])`,
 * drizzle's neon-http) take the same path locally as on Neon. The request and answer are
 * what @neondatabase/serverless sends and reads: the connection string in
 * `Neon-Connection-String`, `{query, params}` or `{queries: [...]}` as JSON; rows as arrays
 * of text with their fields; a Postgres error as 400 with its fields. Statements run on
 * pooled connections to the allowed database address (the local front, or another Postgres).
 */
export interface SqlOverHttp {
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  close(): Promise<void>;
}

interface Statement {
  query: string;
  params?: unknown[];
}

// Neon's HTTP path answers at most 10 MB; the local one enforces the same, so that a statement
// too big for it fails here first and not only in production.
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const ISOLATION: Record<string, string> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
};

export function createSqlOverHttp(options: {
  allowed: Set<string>;
  /** Told how many statements each well-formed request carries (the proxy's counters). */
  onStatements?: (count: number) => void;
  /**
   * How long a request may wait for a pooled connection before it is refused as by a busy
   * server (53300, which the workers answer as 503): the session front's own bound on a turn.
   */
  queueTimeoutMs?: number;
}): SqlOverHttp {
  const pools = new Map<string, pg.Pool>();
  const queueTimeoutMs = options.queueTimeoutMs ?? QUEUE_TIMEOUT_MS;

  const poolFor = (connectionString: string): pg.Pool => {
    let pool = pools.get(connectionString);
    if (!pool) {
      const url = new URL(connectionString);
      const address = `${url.hostname}:${url.port || '5432'}`;
      if (!options.allowed.has(address)) throw new HttpRefusal(403, 'address not allowed');
      pool = sqlPool(connectionString);
      pools.set(connectionString, pool);
    }
    return pool;
  };

  return {
    handle(req, res) {
      const checkOut = (connectionString: string) =>
        checkOutWithin(poolFor(connectionString), queueTimeoutMs);
      serve(req, res, checkOut, options.onStatements).catch((err: unknown) => {
        const status = err instanceof HttpRefusal ? err.status : 500;
        const message = err instanceof Error ? err.message : String(err);
        if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(message);
      });
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.end()));
      pools.clear();
    },
  };
}

class HttpRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function serve(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  checkOut: (connectionString: string) => Promise<pg.PoolClient>,
  onStatements: ((count: number) => void) | undefined,
): Promise<void> {
  if (req.method !== 'POST') throw new HttpRefusal(405, 'POST only');
  const connectionString = req.headers['neon-connection-string'];
  if (typeof connectionString !== 'string') {
    throw new HttpRefusal(400, 'missing Neon-Connection-String');
  }
  const body = JSON.parse(await readBody(req)) as Statement | { queries: Statement[] };
  onStatements?.('queries' in body ? body.queries.length : 1);
  let client: pg.PoolClient;
  try {
    client = await checkOut(connectionString);
  } catch (err) {
    if (!(err instanceof Busy)) throw err;
    // Load shed on purpose, answered as Postgres answers a server that takes no more clients;
    // said in the stack's log too, since the worker only sees a 503.
    console.warn(`local database proxy: ${err.message} (53300)`);
    send(res, 400, { message: err.message, code: '53300', severity: 'ERROR' });
    return;
  }
  let broken = false;
  try {
    if ('queries' in body) {
      const results = await runBatch(client, body.queries, req.headers);
      send(res, 200, { results });
    } else {
      send(res, 200, await run(client, body));
    }
  } catch (err) {
    if (!isDatabaseError(err)) {
      broken = true;
      throw err;
    }
    send(res, 400, errorBody(err));
  } finally {
    client.release(broken);
  }
}

async function runBatch(
  client: pg.PoolClient,
  statements: Statement[],
  headers: http.IncomingHttpHeaders,
) {
  const isolation = ISOLATION[String(headers['neon-batch-isolation-level'] ?? '')];
  const readOnly = headers['neon-batch-read-only'] === 'true';
  const deferrable = headers['neon-batch-deferrable'] === 'true';
  const begin = [
    'BEGIN',
    isolation ? `ISOLATION LEVEL ${isolation}` : '',
    readOnly ? 'READ ONLY' : '',
    deferrable ? 'DEFERRABLE' : '',
  ]
    .filter(Boolean)
    .join(' ');
  await client.query(begin);
  try {
    const results = [];
    for (const statement of statements) results.push(await run(client, statement));
    await client.query('COMMIT');
    return results;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function run(client: pg.PoolClient, statement: Statement) {
  const result = await client.query({
    text: statement.query,
    values: statement.params ?? [],
    rowMode: 'array',
  });
  return {
    command: result.command,
    rowCount: result.rowCount,
    rows: result.rows,
    fields: result.fields.map((field) => ({ ...field, format: 'text' })),
    rowAsArray: true,
  };
}

const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

function isDatabaseError(err: unknown): err is pg.DatabaseError {
  return err instanceof pg.DatabaseError;
}

function errorBody(err: pg.DatabaseError) {
  const body: Record<string, unknown> = { message: err.message };
  for (const field of ERROR_FIELDS) body[field] = err[field];
  return body;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  let text = JSON.stringify(body);
  if (Buffer.byteLength(text) > MAX_RESPONSE_BYTES && status === 200) {
    status = 400;
    text = JSON.stringify({
      message: `response is too large (max is ${MAX_RESPONSE_BYTES} bytes)`,
      code: '54000',
      severity: 'ERROR',
    });
  }
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpRefusal(413, 'request too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
