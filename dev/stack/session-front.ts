import { randomInt } from 'node:crypto';
import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import {
  BackendScanner,
  CANCEL_REQUEST,
  Frontend,
  GSSENC_REQUEST,
  MessageReader,
  SSL_REQUEST,
  SYNC_MESSAGE,
  authenticationOk,
  backendKeyData,
  errorResponse,
  parameterStatus,
  parseFields,
  readyForQuery,
  startupParameters,
  statementNameOf,
  withStatementName,
} from './pg-protocol.ts';
import {
  changesDefaults,
  refusalOf,
  setStatementOf,
  trackSessionSettings,
  type TrackedSettings,
} from './statement-policy.ts';

/**
 * A Postgres wire-protocol front for PGlite that shares its one session between many client
 * connections the way PgBouncer's transaction mode shares a server connection: a client holds
 * the session only for a statement outside a transaction or for a whole transaction (through
 * the Sync of an extended-protocol exchange), then the next client in line gets it. Clients
 * may stay connected and idle as long as they like: idling costs nobody anything.
 *
 * Each client keeps the session it would have on a real server as far as the front can follow
 * it: its user (`SET SESSION AUTHORIZATION`, so the application's role is subject to row-level
 * security as on Neon), the role's and database's configured settings (`ALTER ROLE/DATABASE …
 * SET`, applied as at login), its own `SET`s, and its named prepared statements (renamed per
 * client). What cannot be shared is refused with a clear error (see statement-policy.ts).
 *
 * A client that keeps a transaction open without sending anything for `idleInTransactionMs`
 * is disconnected (25P03) and its transaction rolled back, so nobody holds the session for
 * long; a client that waits longer than `queueTimeoutMs` for its turn is refused (53300).
 */

export interface SessionFrontOptions {
  host?: string;
  port?: number;
  idleInTransactionMs?: number;
  queueTimeoutMs?: number;
}

export interface FrontStats {
  /** Clients waiting for their turn now. */
  waiting: number;
  /** Client connections accepted since the start. */
  connections: number;
  /** Turns served: statements outside a transaction and whole transactions. */
  turns: number;
  /** Turns that had to switch the session to another client's user and settings. */
  switches: number;
}

export interface SessionFront {
  host: string;
  port: number;
  /** Stops accepting, disconnects every client and resets the session. */
  close(): Promise<void>;
  stats(): FrontStats;
}

const SUPERUSER = 'postgres';
/** How long a client may wait for its turn before it is refused (53300) by default. */
export const QUEUE_TIMEOUT_MS = 30_000;

export async function startSessionFront(
  db: PGlite,
  options: SessionFrontOptions = {},
): Promise<SessionFront> {
  const host = options.host ?? '127.0.0.1';
  const server = new SharedSession(db);
  await server.init();
  const limits = {
    idleInTransactionMs: options.idleInTransactionMs ?? 10_000,
    queueTimeoutMs: options.queueTimeoutMs ?? QUEUE_TIMEOUT_MS,
  };
  const clients = new Set<FrontClient>();
  let nextId = 1;
  const listener = net.createServer((socket) => {
    const client = new FrontClient(nextId++, socket, server, limits);
    clients.add(client);
    server.stats.connections++;
    socket.once('close', () => clients.delete(client));
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, host, () => resolve());
  });
  const address = listener.address() as net.AddressInfo;
  return {
    host,
    port: address.port,
    stats: () => ({ ...server.stats, waiting: server.lock.waiting }),
    async close() {
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      await Promise.all([...clients].map((client) => client.end()));
      await closed;
    },
  };
}

class Ended extends Error {}
class QueueTimeout extends Error {}

/** FIFO turns on the one session. */
class TurnLock {
  private owner: object | null = null;
  private readonly queue: { holder: object; grant: () => void; refuse: (e: Error) => void }[] = [];

  get waiting(): number {
    return this.queue.length;
  }

  acquire(holder: object, timeoutMs: number): Promise<void> {
    if (!this.owner) {
      this.owner = holder;
      return Promise.resolve();
    }
    return new Promise<void>((grant, refuse) => {
      const timer = setTimeout(() => {
        this.drop(holder);
        refuse(new QueueTimeout());
      }, timeoutMs);
      this.queue.push({
        holder,
        grant: () => {
          clearTimeout(timer);
          grant();
        },
        refuse: (err) => {
          clearTimeout(timer);
          refuse(err);
        },
      });
    });
  }

  /** A holder that went away while waiting. */
  abandon(holder: object): void {
    this.queue.find((entry) => entry.holder === holder)?.refuse(new Ended());
    this.drop(holder);
  }

  release(holder: object): void {
    if (this.owner !== holder) return;
    const next = this.queue.shift();
    this.owner = next?.holder ?? null;
    next?.grant();
  }

  private drop(holder: object): void {
    const index = this.queue.findIndex((entry) => entry.holder === holder);
    if (index >= 0) this.queue.splice(index, 1);
  }
}

/** PGlite's one session, and what the front knows of the state it is in. */
class SharedSession {
  readonly lock = new TurnLock();
  readonly stats = { connections: 0, turns: 0, switches: 0 };
  /** The user and settings the session is set up for now (see FrontClient.signature). */
  context = '';
  /** What every client is told at start-up (server version, encodings…). */
  parameters: Record<string, string> = {};
  private readonly superusers = new Map<string, boolean | undefined>();
  private readonly roleSettings = new Map<string, string[]>();
  private readonly db: PGlite;

  constructor(db: PGlite) {
    this.db = db;
  }

  async init(): Promise<void> {
    const names = [
      'server_version',
      'server_encoding',
      'client_encoding',
      'DateStyle',
      'IntervalStyle',
      'TimeZone',
      'integer_datetimes',
      'standard_conforming_strings',
    ];
    for (const name of names) {
      const { rows } = await this.db.query<{ value: string }>(
        'select current_setting($1) as value',
        [name],
      );
      this.parameters[name] = rows[0]!.value;
    }
  }

  /** Sends one frontend message to the session; every output chunk goes to `onData`. */
  forward(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<unknown> {
    return this.db.runExclusive(() =>
      this.db.execProtocolRawStream(message, { onRawData: onData }),
    );
  }

  // query() and exec() take PGlite's own lock; only the raw protocol call needs it taken here.
  exec(script: string): Promise<unknown> {
    return this.db.exec(script);
  }

  inTransaction(): boolean {
    return this.db.isInTransaction();
  }

  /** Whether {@link superuser} can answer for this role without a catalog lookup. */
  knowsRole(user: string): boolean {
    return this.superusers.has(user);
  }

  /** Whether a role may log in as a superuser, a plain role, or does not exist (undefined). */
  async superuser(user: string): Promise<boolean | undefined> {
    if (!this.superusers.has(user)) {
      const { rows } = await this.db.query<{ rolsuper: boolean }>(
        'select rolsuper from pg_roles where rolname = $1',
        [user],
      );
      this.superusers.set(user, rows[0]?.rolsuper);
    }
    return this.superusers.get(user);
  }

  /** `SET`s a login as `user` would get from ALTER DATABASE / ALTER ROLE … SET, in order. */
  async loginSettings(user: string): Promise<string[]> {
    let settings = this.roleSettings.get(user);
    if (!settings) {
      const { rows } = await this.db.query<{ setconfig: string[] }>(
        `select s.setconfig
           from pg_db_role_setting s
           where s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
             and s.setrole in (0, (select oid from pg_roles where rolname = $1))
           -- Postgres's precedence: database, then role, then role in this database.
           order by (s.setrole <> 0), (s.setdatabase <> 0)`,
        [user],
      );
      settings = rows.flatMap((row) => row.setconfig.map(setStatementOf));
      this.roleSettings.set(user, settings);
    }
    return settings;
  }

  forgetDefaults(): void {
    this.superusers.clear();
    this.roleSettings.clear();
  }
}

interface Limits {
  idleInTransactionMs: number;
  queueTimeoutMs: number;
}

class FrontClient {
  private readonly reader = new MessageReader();
  private readonly scanner = new BackendScanner();
  private readonly settings: TrackedSettings = new Map();
  /** Named prepared statements, by the client's own name. */
  private readonly statements = new Set<string>();
  /** Statement texts of the current extended-protocol exchange, to track SETs at Sync. */
  private pendingTexts: string[] = [];
  private phase: 'startup' | 'ready' | 'ended' = 'startup';
  private user = SUPERUSER;
  private loginSettings: string[] = [];
  private isSuperuser = true;
  private holding = false;
  private awaitingSync = false;
  private skippingToSync = false;
  private status: 'I' | 'T' | 'E' = 'I';
  private pumping = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private endPromise: Promise<void> | undefined;

  private readonly id: number;
  private readonly socket: net.Socket;
  private readonly server: SharedSession;
  private readonly limits: Limits;

  constructor(id: number, socket: net.Socket, server: SharedSession, limits: Limits) {
    this.id = id;
    this.socket = socket;
    this.server = server;
    this.limits = limits;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      this.reader.push(chunk);
      this.pumping = this.pumping.then(() => this.pump()).catch((err) => this.failed(err));
    });
    socket.on('error', () => void this.end());
    socket.on('close', () => void this.end());
  }

  private async pump(): Promise<void> {
    for (;;) {
      if (this.phase === 'ended') return;
      const message =
        this.phase === 'startup' ? this.reader.takeUntyped() : this.reader.takeTyped();
      if (!message) break;
      this.clearIdleTimer();
      if (this.phase === 'startup') await this.startup(message);
      else await this.handle(message);
    }
    // Holding the session with nothing more to run: inside a transaction, or mid exchange.
    if (this.holding) this.armIdleTimer();
  }

  private async startup(message: Buffer): Promise<void> {
    const code = message.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.socket.write('N'); // plain text on loopback; the client continues with its startup
      return;
    }
    if (code === CANCEL_REQUEST) {
      // A running statement cannot be interrupted: PGlite runs it to the end synchronously.
      await this.end();
      return;
    }
    const params = startupParameters(message);
    this.user = params.user || SUPERUSER;
    const superuser = await this.roleAtLogin();
    if (superuser === undefined) {
      this.fatal('28000', `role "${this.user}" does not exist`);
      return;
    }
    this.isSuperuser = superuser;
    for (const [, name, value] of (params.options ?? '').matchAll(/-c\s*([\w.]+)=(\S+)/g)) {
      trackSessionSettings(`SET ${name} = '${value!.replaceAll("'", "''")}'`, this.settings);
    }
    const { parameters } = this.server;
    this.write(
      Buffer.concat([
        authenticationOk(),
        ...Object.entries(parameters).map(([name, value]) => parameterStatus(name, value)),
        parameterStatus('application_name', params.application_name ?? ''),
        parameterStatus('is_superuser', superuser ? 'on' : 'off'),
        parameterStatus('session_authorization', this.user),
        backendKeyData(this.id, randomInt(2 ** 31)),
        readyForQuery('I'),
      ]),
    );
    this.phase = 'ready';
  }

  /**
   * Whether this client's role is a superuser (undefined: no such role). A role looked up
   * before needs no turn: drivers bound connecting (5 s) far below the time a statement may
   * wait for its turn, so a login queued behind busy clients would fail as "cannot connect".
   */
  private async roleAtLogin(): Promise<boolean | undefined> {
    if (this.server.knowsRole(this.user)) return this.server.superuser(this.user);
    return this.withTurn(() => this.server.superuser(this.user));
  }

  private async handle(message: Buffer): Promise<void> {
    const type = message[0];
    if (type === Frontend.Terminate) {
      // Not awaited: ending waits for this very pump to finish before it cleans up (rolls
      // back, gives the session back), so awaiting it here would wait forever.
      void this.end();
      return;
    }
    if (this.skippingToSync) {
      // After an error in an extended-protocol exchange, Postgres discards until Sync.
      if (type !== Frontend.Sync) return;
      this.skippingToSync = false;
      this.write(readyForQuery(this.status));
      if (this.holding && this.status === 'I') this.release();
      return;
    }
    const text =
      type === Frontend.Query
        ? queryText(message)
        : type === Frontend.Parse
          ? parseFields(message).query
          : undefined;
    if (text !== undefined) {
      const refusal = refusalOf(text, this.isSuperuser);
      if (refusal) {
        this.write(errorResponse('ERROR', refusal.sqlstate, refusal.message));
        if (type === Frontend.Query) this.write(readyForQuery(this.status));
        else this.skippingToSync = true;
        return;
      }
    }
    if (!this.holding) await this.takeTurn();
    await this.forward(this.renamed(message));
    if (type === Frontend.Query) {
      this.afterStatements([text!]);
    } else if (type === Frontend.Sync) {
      this.awaitingSync = false;
      this.afterStatements(this.pendingTexts);
      this.pendingTexts = [];
    } else {
      this.awaitingSync = true;
      if (text !== undefined) this.pendingTexts.push(text);
    }
  }

  /** After a simple query or a Sync: note what changed, and give the session back if idle. */
  private afterStatements(texts: string[]): void {
    const failed = this.scanner.sawError;
    this.status = this.scanner.status ?? this.status;
    this.scanner.reset();
    if (!failed) {
      for (const text of texts) {
        if (changesDefaults(text)) this.server.forgetDefaults();
        // The session already has the new settings: record them as this client's context.
        if (trackSessionSettings(text, this.settings)) {
          this.server.context = this.signature(this.loginSettings);
        }
      }
    }
    if (this.status === 'I' && !this.awaitingSync) this.release();
  }

  private renamed(message: Buffer): Buffer {
    const name = statementNameOf(message);
    if (!name) return message;
    if (message[0] === Frontend.Parse) this.statements.add(name);
    if (message[0] === Frontend.Close) this.statements.delete(name);
    return withStatementName(message, this.serverName(name));
  }

  private serverName(name: string): string {
    return `c${this.id}_${name}`;
  }

  private async forward(message: Buffer): Promise<void> {
    await this.server.forward(message, (data) => {
      this.scanner.scan(data);
      // `data` is a view of PGlite's WebAssembly memory, which its next output overwrites:
      // a write the socket cannot take at once would send those later bytes. Copy first.
      this.write(Buffer.from(data));
    });
  }

  /** Waits for this client's turn and sets the session up as this client's. */
  private async takeTurn(): Promise<void> {
    try {
      await this.server.lock.acquire(this, this.limits.queueTimeoutMs);
    } catch (err) {
      if (err instanceof QueueTimeout) {
        this.fatal('53300', 'the local database is busy: waited too long for a turn');
      }
      throw new Ended();
    }
    this.holding = true;
    this.server.stats.turns++;
    try {
      await this.applyContext();
    } catch (err) {
      this.release();
      throw err;
    }
  }

  private async applyContext(): Promise<void> {
    this.loginSettings = await this.server.loginSettings(this.user);
    const signature = this.signature(this.loginSettings);
    if (this.server.context === signature) return;
    // Named even for the superuser: PGlite's single-user backend does not return to its
    // original user on SET SESSION AUTHORIZATION DEFAULT.
    const script = [
      'RESET ALL',
      `SET SESSION AUTHORIZATION ${quoteIdent(this.user)}`,
      ...this.loginSettings,
      ...this.settings.values(),
    ];
    await this.server.exec(script.join('; '));
    this.server.context = signature;
    this.server.stats.switches++;
  }

  /** Who the session must be for this client: its user, login settings and own SETs. */
  private signature(loginSettings: string[]): string {
    return [this.user, ...loginSettings, '--', ...this.settings.values()].join('\n');
  }

  private release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.clearIdleTimer();
    this.server.lock.release(this);
  }

  /** Internal work that needs the session (catalog lookups), in turn with everybody else. */
  private async withTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.holding) return work();
    await this.server.lock.acquire(this, this.limits.queueTimeoutMs);
    try {
      return await work();
    } finally {
      this.server.lock.release(this);
    }
  }

  private armIdleTimer(): void {
    // A message that arrives in several pieces arms the timer once per piece: only the last
    // may run, or an earlier one would end a client that has been busy all along.
    this.clearIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.fatal('25P03', 'terminating connection due to idle-in-transaction timeout');
    }, this.limits.idleInTransactionMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private write(data: Uint8Array): void {
    if (this.socket.writable) this.socket.write(data);
  }

  /** Sends a FATAL ErrorResponse, as a Postgres server would, and ends the connection. */
  private fatal(sqlstate: string, text: string): void {
    this.write(errorResponse('FATAL', sqlstate, text));
    void this.end();
  }

  private failed(err: unknown): void {
    if (!(err instanceof Ended)) {
      this.fatal(
        'XX000',
        `local database front: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  end(): Promise<void> {
    this.endPromise ??= this.finish();
    return this.endPromise;
  }

  private async finish(): Promise<void> {
    this.phase = 'ended';
    this.clearIdleTimer();
    this.server.lock.abandon(this);
    this.socket.end();
    this.socket.destroy();
    // A message in flight still runs; clean up after it.
    await this.pumping.catch(() => undefined);
    if (!this.holding && this.statements.size === 0) return;
    try {
      await this.withTurn(() => this.cleanUp());
    } finally {
      this.release();
    }
  }

  /** Leaves nothing of this client in the session: open exchange, transaction, statements. */
  private async cleanUp(): Promise<void> {
    if (this.awaitingSync) await this.server.forward(SYNC_MESSAGE, () => undefined);
    const script: string[] = [];
    if (this.server.inTransaction()) script.push('ROLLBACK');
    for (const name of this.statements)
      script.push(`DEALLOCATE ${quoteIdent(this.serverName(name))}`);
    if (script.length > 0) await this.server.exec(script.join('; '));
  }
}

function queryText(message: Buffer): string {
  return message.toString('utf8', 5, message.length - 1);
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
