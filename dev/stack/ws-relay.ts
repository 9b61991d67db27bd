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
  const server = new WebSocketServer({ host, port: options.port ?? 0 });
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

  const port = (server.address() as net.AddressInfo).port;
  return {
    address: `${host}:${port}`,
    port,
    async close() {
      for (const client of server.clients) client.terminate();
      for (const socket of tcpSockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
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
