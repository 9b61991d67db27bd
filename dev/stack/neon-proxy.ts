import http from 'node:http';
import net from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { FrontendScanner } from './frontend-scanner.ts';
import {
  countFrontendMessage,
  emptyProxyStats,
  serveProxyStats,
  type ProxyStats,
} from './proxy-stats.ts';
import { createSqlOverHttp, type SqlOverHttp } from './sql-over-http.ts';

/**
 * The local stand-in for Neon's proxy, on one loopback port, for the two paths the Neon
 * driver takes in a worker:
 * - `ws://proxy/v1?address=host:port`: the Postgres protocol over a WebSocket, relayed to
 *   that TCP address (sessions and interactive transactions: the driver's `Pool`/`Client`);
 * - `POST http://proxy/sql`: one statement or a non-interactive transaction as JSON (the
 *   driver's `neon()` and `sql.transaction([...])`, drizzle's neon-http).
 * Only the database addresses it was started for are reachable, so it is never an open proxy.
 * `GET /_stats` (loopback clients only) answers what it relayed so far (see proxy-stats.ts):
 * benchmarks count a request's database round trips with it.
 */
export interface NeonProxy {
  /** `host:port`, the value of DATABASE_PROXY. */
  address: string;
  port: number;
  /** Drops every connection and stops listening: the database "goes away" (fault tests). */
  suspend(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
  /** What `GET /_stats` answers: counts since the start (suspensions included). */
  stats(): ProxyStats;
}

export async function startNeonProxy(options: {
  allowed: string[];
  host?: string;
  port?: number;
  /** How long an HTTP statement may wait for a connection (see sql-over-http.ts). */
  queueTimeoutMs?: number;
}): Promise<NeonProxy> {
  const host = options.host ?? '127.0.0.1';
  const allowed = new Set(options.allowed);
  const stats = emptyProxyStats();
  const sqlOptions = { allowed, queueTimeoutMs: options.queueTimeoutMs };
  let running = await listen(host, options.port ?? 0, sqlOptions, stats);
  const port = running.port;
  let suspended = false;
  return {
    address: `${host}:${port}`,
    port,
    async suspend() {
      if (suspended) return;
      suspended = true;
      await running.stop();
    },
    async resume() {
      if (!suspended) return;
      running = await listen(host, port, sqlOptions, stats);
      suspended = false;
    },
    close: () => (suspended ? Promise.resolve() : running.stop()),
    stats: () => ({ ...stats }),
  };
}

interface Listening {
  port: number;
  stop(): Promise<void>;
}

async function listen(
  host: string,
  port: number,
  sqlOptions: { allowed: Set<string>; queueTimeoutMs?: number },
  stats: ProxyStats,
): Promise<Listening> {
  const { allowed } = sqlOptions;
  const sql: SqlOverHttp = createSqlOverHttp({
    ...sqlOptions,
    onStatements: (count) => (stats.sqlStatements += count),
  });
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://proxy');
    if (pathname === '/sql') {
      stats.sqlRequests++;
      sql.handle(req, res);
    } else if (pathname === '/_stats') serveProxyStats(stats, req, res);
    else res.writeHead(404).end();
  });
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const websockets = new WebSocketServer({ server });
  const tcpSockets = new Set<net.Socket>();
  websockets.on('connection', (ws, request) => {
    const target = new URL(request.url ?? '/', 'http://proxy').searchParams.get('address') ?? '';
    if (!allowed.has(target)) {
      ws.close(1008, 'address not allowed');
      return;
    }
    const tcp = connectTo(target);
    tcpSockets.add(tcp);
    tcp.once('close', () => tcpSockets.delete(tcp));
    stats.wsConnections++;
    const scanner = new FrontendScanner((type) => countFrontendMessage(stats, type));
    ws.on('message', (data: Buffer) => {
      stats.wsMessages++;
      scanner.scan(data);
    });
    pipe(ws, tcp);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    async stop() {
      for (const client of websockets.clients) client.terminate();
      for (const socket of tcpSockets) socket.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sql.close();
    },
  };
}

function connectTo(address: string): net.Socket {
  const separator = address.lastIndexOf(':');
  const socket = net.connect(Number(address.slice(separator + 1)), address.slice(0, separator));
  socket.setNoDelay(true);
  return socket;
}

function pipe(ws: WebSocket, tcp: net.Socket): void {
  // Bytes the client sends before the TCP connection is up are queued by net.Socket itself.
  ws.on('message', (data: Buffer) => tcp.write(data));
  tcp.on('data', (data) => {
    if (ws.readyState === ws.OPEN) ws.send(data);
  });
  ws.on('close', () => tcp.end());
  ws.on('error', () => tcp.destroy());
  tcp.on('close', () => ws.close());
  tcp.on('error', () => ws.terminate());
}
