import net from 'node:net';

/**
 * A deliberately small Postgres wire-protocol client for tests of the local database front:
 * it speaks the simple query protocol only, and lets a test decide how fast the socket is read
 * (pause/resume), which real drivers hide. Rows come back as text.
 */
export interface RawResult {
  rows: (string | null)[][];
  /** Fields of an ErrorResponse, by their one-letter code (C = SQLSTATE, M = message). */
  error?: Record<string, string>;
}

export class RawPgClient {
  private buffer = Buffer.alloc(0);
  private waiter: (() => void) | undefined;
  private closed = false;
  readonly socket: net.Socket;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async connect(port: number, options: { user?: string } = {}): Promise<RawPgClient> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const client = new RawPgClient(socket);
    socket.write(startupMessage(options.user ?? 'postgres', 'postgres'));
    const ready = await client.readUntilReady();
    if (ready.error) throw new Error(`startup refused: ${ready.error.M}`);
    return client;
  }

  /** Sends one simple query and reads every message up to ReadyForQuery. */
  async query(text: string): Promise<RawResult> {
    this.send('Q', Buffer.from(`${text}\0`, 'utf8'));
    return this.readUntilReady();
  }

  /** Sends one simple query without reading the answer (the test reads it later). */
  sendQuery(text: string): void {
    this.send('Q', Buffer.from(`${text}\0`, 'utf8'));
  }

  async readUntilReady(): Promise<RawResult> {
    const result: RawResult = { rows: [] };
    for (;;) {
      const message = await this.nextMessage();
      if (!message) throw new Error('connection closed before ReadyForQuery');
      const { type, body } = message;
      if (type === 'D') result.rows.push(dataRow(body));
      else if (type === 'E') {
        result.error = errorFields(body);
        if (this.closed && this.buffer.length === 0) return result;
      } else if (type === 'Z') return result;
    }
  }

  /** Resolves when the server closed the connection; with the FATAL error it sent, if any. */
  async closedByServer(): Promise<Record<string, string> | undefined> {
    let error: Record<string, string> | undefined;
    for (;;) {
      const message = await this.nextMessage();
      if (!message) return error;
      if (message.type === 'E') error = errorFields(message.body);
    }
  }

  end(): void {
    if (!this.closed) this.socket.end(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
  }

  private send(type: string, body: Buffer): void {
    const header = Buffer.alloc(5);
    header.write(type, 0, 'ascii');
    header.writeInt32BE(body.length + 4, 1);
    this.socket.write(Buffer.concat([header, body]));
  }

  private async nextMessage(): Promise<{ type: string; body: Buffer } | undefined> {
    for (;;) {
      if (this.buffer.length >= 5) {
        const length = this.buffer.readInt32BE(1) + 1;
        if (this.buffer.length >= length) {
          const type = String.fromCharCode(this.buffer[0]!);
          const body = this.buffer.subarray(5, length);
          this.buffer = this.buffer.subarray(length);
          return { type, body };
        }
      }
      if (this.closed) return undefined;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}

function startupMessage(user: string, database: string): Buffer {
  const params = Buffer.from(`user\0${user}\0database\0${database}\0\0`, 'utf8');
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + params.length, 0);
  header.writeInt32BE(196608, 4); // protocol 3.0
  return Buffer.concat([header, params]);
}

function dataRow(body: Buffer): (string | null)[] {
  const count = body.readInt16BE(0);
  const values: (string | null)[] = [];
  let offset = 2;
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(offset);
    offset += 4;
    if (length < 0) values.push(null);
    else {
      values.push(body.toString('utf8', offset, offset + length));
      offset += length;
    }
  }
  return values;
}

function errorFields(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  let offset = 0;
  while (offset < body.length && body[offset] !== 0) {
    const code = String.fromCharCode(body[offset]!);
    const end = body.indexOf(0, offset + 1);
    fields[code] = body.toString('utf8', offset + 1, end);
    offset = end + 1;
  }
  return fields;
}
