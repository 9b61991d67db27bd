import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A Postgres wire-protocol front for PGlite that gives every client connection the semantics
 * of its own session.
 *
 * PGlite is one backend with one session. pglite-socket shares that session between all its
 * clients, so one request's BEGIN swallows another's queries and SETs leak. Here a client
 * holds the whole session from its startup message until it leaves; other clients wait in a
 * FIFO queue. Between two clients the session is reset (ROLLBACK, DISCARD ALL). A client that
 * sits idle outside a transaction while others wait is disconnected, as Postgres's
 * idle_session_timeout would, so a pool's idle connection cannot starve the others.
 */

export interface SessionFrontOptions {
  host?: string;
  port?: number;
  /** How long an idle holder keeps the session while others wait. */
  idleHandoverMs?: number;
  /** How long a client may wait for the session before it is refused. */
  queueTimeoutMs?: number;
}

export interface SessionFront {
  host: string;
  port: number;
  /** Stops accepting, disconnects every client and resets the session. */
  close(): Promise<void>;
  stats(): { waiting: number; served: number };
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const TERMINATE = 0x58; // 'X'
const SYNC = 0x53; // 'S'
const SIMPLE_QUERY = 0x51; // 'Q'
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);

export async function startSessionFront(
  db: PGlite,
  options: SessionFrontOptions = {},
): Promise<SessionFront> {
  const host = options.host ?? '127.0.0.1';
  const idleHandoverMs = options.idleHandoverMs ?? 1_000;
  const queueTimeoutMs = options.queueTimeoutMs ?? 30_000;
  const lock = new SessionLock();
  const clients = new Set<ClientSession>();
  let served = 0;

  const server = net.createServer((socket) => {
    const client = new ClientSession(socket, db, lock, { idleHandoverMs, queueTimeoutMs });
    clients.add(client);
    served++;
    socket.once('close', () => clients.delete(client));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as net.AddressInfo;

  return {
    host,
    port: address.port,
    stats: () => ({ waiting: lock.waiting, served }),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...clients].map((client) => client.end()));
      await closed;
    },
  };
}

/** FIFO ownership of PGlite's single session. */
class SessionLock {
  private owner: ClientSession | null = null;
  private readonly queue: { client: ClientSession; grant: () => void }[] = [];

  get waiting(): number {
    return this.queue.length;
  }

  acquire(client: ClientSession): Promise<void> {
    if (!this.owner) {
      this.owner = client;
      return Promise.resolve();
    }
    return new Promise((grant) => this.queue.push({ client, grant }));
  }

  /** Drops a client that gave up waiting. */
  abandon(client: ClientSession): void {
    const index = this.queue.findIndex((entry) => entry.client === client);
    if (index >= 0) this.queue.splice(index, 1);
  }

  release(client: ClientSession): void {
    if (this.owner !== client) return;
    const next = this.queue.shift();
    this.owner = next?.client ?? null;
    next?.grant();
  }

  isOwner(client: ClientSession): boolean {
    return this.owner === client;
  }
}

type Phase = 'startup' | 'waiting' | 'active' | 'ended';

class ClientSession {
  private phase: Phase = 'startup';
  private buffer = Buffer.alloc(0);
  private processing = Promise.resolve();
  private busy = false;
  // Extended-protocol messages (Parse/Bind/Execute…) leave the session mid-command until Sync.
  private awaitingSync = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private endPromise: Promise<void> | undefined;
  private readonly socket: net.Socket;
  private readonly db: PGlite;
  private readonly lock: SessionLock;
  private readonly limits: { idleHandoverMs: number; queueTimeoutMs: number };

  constructor(
    socket: net.Socket,
    db: PGlite,
    lock: SessionLock,
    limits: { idleHandoverMs: number; queueTimeoutMs: number },
  ) {
    this.socket = socket;
    this.db = db;
    this.lock = lock;
    this.limits = limits;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', () => void this.end());
    socket.on('close', () => void this.end());
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.processing = this.processing.then(() => this.drain()).catch(() => this.end());
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.phase === 'ended') return;
      const message = this.phase === 'startup' ? this.takeStartup() : this.takeTyped();
      if (!message) break;
      await this.handle(message);
    }
    this.scheduleIdleHandover();
  }

  private takeStartup(): Buffer | null {
    if (this.buffer.length < 8) return null;
    const length = this.buffer.readInt32BE(0);
    if (this.buffer.length < length) return null;
    return this.take(length);
  }

  private takeTyped(): Buffer | null {
    if (this.buffer.length < 5) return null;
    const length = 1 + this.buffer.readInt32BE(1);
    if (this.buffer.length < length) return null;
    return this.take(length);
  }

  private take(length: number): Buffer {
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return message;
  }

  private async handle(message: Buffer): Promise<void> {
    if (this.phase === 'startup') return this.handleStartup(message);
    if (message[0] === TERMINATE) return this.end();
    this.clearIdleTimer();
    this.busy = true;
    try {
      await this.forward(message);
      if (message[0] === SYNC || message[0] === SIMPLE_QUERY) this.awaitingSync = false;
      else this.awaitingSync = true;
    } finally {
      this.busy = false;
    }
  }

  private async handleStartup(message: Buffer): Promise<void> {
    const code = message.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.socket.write('N'); // no encryption on loopback; the client continues in plain text
      return;
    }
    if (code === CANCEL_REQUEST) {
      // One session at a time: there is never another running query of this client to cancel.
      await this.end();
      return;
    }
    this.phase = 'waiting';
    if (!(await this.waitForSession())) return;
    this.phase = 'active';
    await this.forward(message);
  }

  private async waitForSession(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.limits.queueTimeoutMs);
    });
    const granted = await Promise.race([this.lock.acquire(this), timedOut]);
    clearTimeout(timer);
    if (granted === false) {
      this.lock.abandon(this);
      this.fail('53300', 'the local database is busy: too many clients waiting');
      return false;
    }
    return this.phase === 'waiting';
  }

  private async forward(message: Buffer): Promise<void> {
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(new Uint8Array(message), {
        // `data` is a view of PGlite's WebAssembly memory, which its next output overwrites:
        // a write the socket cannot take at once would send those later bytes. Copy first.
        onRawData: (data) => {
          if (data.length > 0 && this.socket.writable) this.socket.write(Buffer.from(data));
        },
      }),
    );
  }

  private scheduleIdleHandover(): void {
    this.clearIdleTimer();
    if (this.phase !== 'active') return;
    this.idleTimer = setTimeout(() => {
      const idle = !this.busy && !this.awaitingSync && !this.db.isInTransaction();
      if (this.lock.waiting > 0 && idle && this.buffer.length === 0) {
        this.fail(
          '57P05',
          'terminating connection due to idle-session timeout (another client waits)',
        );
      } else {
        this.scheduleIdleHandover();
      }
    }, this.limits.idleHandoverMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Sends a FATAL ErrorResponse, as a Postgres server would, and ends the connection. */
  private fail(sqlstate: string, text: string): void {
    if (this.socket.writable) this.socket.write(errorResponse(sqlstate, text));
    void this.end();
  }

  end(): Promise<void> {
    this.endPromise ??= this.finish();
    return this.endPromise;
  }

  private async finish(): Promise<void> {
    const wasActive = this.phase === 'active';
    this.phase = 'ended';
    this.clearIdleTimer();
    this.lock.abandon(this);
    this.socket.end();
    this.socket.destroy();
    if (!this.lock.isOwner(this)) return;
    // An in-flight message still runs under runExclusive; the reset below queues behind it.
    try {
      if (wasActive) await this.resetSession();
    } finally {
      this.lock.release(this);
    }
  }

  /** Leaves nothing of this client's session for the next one. */
  private async resetSession(): Promise<void> {
    await this.db.runExclusive(async () => {
      // A client that vanished mid extended-protocol leaves the backend waiting for Sync.
      await this.db.execProtocolRaw(SYNC_MESSAGE);
    });
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    await this.db.exec('DISCARD ALL');
  }
}

function errorResponse(sqlstate: string, text: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${sqlstate}\0M${text}\0\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0, 'ascii');
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}
