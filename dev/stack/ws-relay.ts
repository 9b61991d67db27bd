import net from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * The local stand-in for Neon's WebSocket proxy: the Neon driver in a worker opens
 * `ws://relay/v1?address=host:port` and speaks the Postgres protocol over it; the relay
 * forwards the bytes to that TCP address. Only the addresses it was started for are allowed,
 * so it can never be used as an open proxy.
 */
export interface WsRelay {
  /** `host:port`, the value of DATABASE_WS_PROXY. */
  address: string;
  port: number;
  /** Drops every connection and stops listening: the database "goes away" (fault tests). */
  suspend(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startWsRelay(options: {
  allowed: string[];
  host?: string;
  port?: number;
}): Promise<WsRelay> {
  const host = options.host ?? '127.0.0.1';
  const allowed = new Set(options.allowed);
  const tcpSockets = new Set<net.Socket>();
  let server = await listen(host, options.port ?? 0, allowed, tcpSockets);
  const port = (server.address() as net.AddressInfo).port;

  const stop = async () => {
    for (const client of server.clients) client.terminate();
    for (const socket of tcpSockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  let suspended = false;
  return {
    address: `${host}:${port}`,
    port,
    async suspend() {
      if (suspended) return;
      suspended = true;
      await stop();
    },
    async resume() {
      if (!suspended) return;
      server = await listen(host, port, allowed, tcpSockets);
      suspended = false;
    },
    close: () => (suspended ? Promise.resolve() : stop()),
  };
}

async function listen(
  host: string,
  port: number,
  allowed: Set<string>,
  tcpSockets: Set<net.Socket>,
): Promise<WebSocketServer> {
  const server = new WebSocketServer({ host, port });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.on('connection', (ws, request) => {
    const target = new URL(request.url ?? '/', 'http://relay').searchParams.get('address') ?? '';
    if (!allowed.has(target)) {
      ws.close(1008, 'address not allowed');
      return;
    }
    const tcp = connectTo(target);
    tcpSockets.add(tcp);
    tcp.once('close', () => tcpSockets.delete(tcp));
    pipe(ws, tcp);
  });
  return server;
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
