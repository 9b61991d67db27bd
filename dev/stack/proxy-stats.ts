import type http from 'node:http';
import { Frontend } from './pg-protocol.ts';

/**
 * What the local Neon proxy has relayed since it started, so that a benchmark can count the
 * database round trips of a request: read `GET /_stats` before and after it, and subtract.
 */
export interface ProxyStats {
  /** HTTP `/sql` requests: ONE round trip each, whatever they carry. */
  sqlRequests: number;
  /** Statements those requests carried (each statement of a transaction counts). */
  sqlStatements: number;
  /** WebSocket connections opened (each costs its own set-up: upgrade, startup, login). */
  wsConnections: number;
  /** WebSocket messages from clients. */
  wsMessages: number;
  /**
   * Postgres round trips over WebSockets after the login: the client's simple Query and Sync
   * messages, after each of which it waits for the server's ReadyForQuery.
   */
  wsRoundTrips: number;
}

export function emptyProxyStats(): ProxyStats {
  return { sqlRequests: 0, sqlStatements: 0, wsConnections: 0, wsMessages: 0, wsRoundTrips: 0 };
}

/** Counts a frontend message seen on a WebSocket relay (see FrontendScanner). */
export function countFrontendMessage(stats: ProxyStats, type: number): void {
  if (type === Frontend.Query || type === Frontend.Sync) stats.wsRoundTrips++;
}

/** `GET /_stats`: the counters as JSON, to loopback clients only. */
export function serveProxyStats(
  stats: ProxyStats,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): void {
  if (!isLoopback(req.socket.remoteAddress)) {
    res.writeHead(403, { 'content-type': 'text/plain' }).end('loopback only');
    return;
  }
  if (req.method !== 'GET') {
    res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET' }).end('GET only');
    return;
  }
  const body = JSON.stringify(stats);
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
