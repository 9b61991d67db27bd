/**
 * The pieces of the Postgres frontend/backend protocol (version 3) the local database front
 * needs: framing of the byte stream into messages, the few backend messages it writes itself,
 * and the fields of the frontend messages it rewrites.
 * https://www.postgresql.org/docs/current/protocol-message-formats.html
 */

export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** Frontend message types the front looks at. */
export const Frontend = {
  Query: 0x51, // Q
  Parse: 0x50, // P
  Bind: 0x42, // B
  Describe: 0x44, // D
  Close: 0x43, // C
  Execute: 0x45, // E
  Sync: 0x53, // S
  Flush: 0x48, // H
  Terminate: 0x58, // X
} as const;

/** Backend message types the front looks at. */
export const Backend = {
  ErrorResponse: 0x45, // E
  ReadyForQuery: 0x5a, // Z
} as const;

/** Splits a growing byte stream into whole messages: startup-style (no type byte) or typed. */
export class MessageReader {
  private buffer = Buffer.alloc(0);

  push(chunk: Uint8Array): void {
    this.buffer =
      this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** A startup, SSL or cancel request: Int32 length (itself included), then the body. */
  takeUntyped(): Buffer | undefined {
    if (this.buffer.length < 8) return undefined;
    return this.take(this.buffer.readInt32BE(0));
  }

  /** A typed message: Byte1 type, Int32 length (itself included), then the body. */
  takeTyped(): Buffer | undefined {
    if (this.buffer.length < 5) return undefined;
    return this.take(1 + this.buffer.readInt32BE(1));
  }

  private take(length: number): Buffer | undefined {
    if (this.buffer.length < length) return undefined;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return message;
  }
}

/**
 * Follows the backend's output as it streams by, in chunks that split messages anywhere, and
 * notes what the front needs: whether an error was sent and the last ReadyForQuery status
 * (`I` idle, `T` in a transaction, `E` in a failed transaction).
 */
export class BackendScanner {
  private header = Buffer.alloc(0);
  private remaining = 0;
  private type = 0;
  private statusNext = false;
  status: 'I' | 'T' | 'E' | undefined;
  sawError = false;

  reset(): void {
    this.status = undefined;
    this.sawError = false;
  }

  scan(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        if (this.statusNext) {
          this.status = String.fromCharCode(chunk[offset]!) as 'I' | 'T' | 'E';
          this.statusNext = false;
        }
        const step = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= step;
        offset += step;
        continue;
      }
      const need = 5 - this.header.length;
      const part = chunk.subarray(offset, offset + need);
      this.header = Buffer.concat([this.header, part]);
      offset += part.length;
      if (this.header.length < 5) return;
      this.type = this.header[0]!;
      this.remaining = this.header.readInt32BE(1) - 4;
      this.header = Buffer.alloc(0);
      if (this.type === Backend.ErrorResponse) this.sawError = true;
      if (this.type === Backend.ReadyForQuery) this.statusNext = true;
    }
  }
}

/** The key/value parameters of a StartupMessage. */
export function startupParameters(message: Buffer): Record<string, string> {
  const params: Record<string, string> = {};
  const parts = message.toString('utf8', 8).split('\0');
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2)
    params[parts[i]!] = parts[i + 1]!;
  return params;
}

function typed(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'ascii');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');

export const authenticationOk = () => typed('R', Buffer.from([0, 0, 0, 0]));

export const parameterStatus = (name: string, value: string) =>
  typed('S', Buffer.concat([cstring(name), cstring(value)]));

export function backendKeyData(processId: number, secret: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeInt32BE(processId, 0);
  body.writeInt32BE(secret, 4);
  return typed('K', body);
}

export const readyForQuery = (status: 'I' | 'T' | 'E') => typed('Z', Buffer.from(status, 'ascii'));

/** An ErrorResponse; FATAL ones end the connection, as a Postgres server's would. */
export function errorResponse(severity: 'ERROR' | 'FATAL', sqlstate: string, text: string): Buffer {
  const fields = `S${severity}\0V${severity}\0C${sqlstate}\0M${text}\0\0`;
  return typed('E', Buffer.from(fields, 'utf8'));
}

/** A simple Query message. */
export const queryMessage = (text: string) => typed('Q', cstring(text));

export const SYNC_MESSAGE = typed('S', Buffer.alloc(0));

/** Reads a NUL-terminated string at `offset`; returns it and the offset after its NUL. */
function readCString(buffer: Buffer, offset: number): [string, number] {
  const end = buffer.indexOf(0, offset);
  return [buffer.toString('utf8', offset, end), end + 1];
}

/** Parse: statement name and query text. */
export function parseFields(message: Buffer): { statement: string; query: string } {
  const [statement, next] = readCString(message, 5);
  const [query] = readCString(message, next);
  return { statement, query };
}

/** The statement name a message refers to, if it refers to one (Parse, Bind, Describe/Close 'S'). */
export function statementNameOf(message: Buffer): string | undefined {
  switch (message[0]) {
    case Frontend.Parse:
      return readCString(message, 5)[0];
    case Frontend.Bind: {
      const [, afterPortal] = readCString(message, 5);
      return readCString(message, afterPortal)[0];
    }
    case Frontend.Describe:
    case Frontend.Close:
      return message[5] === 0x53 /* S */ ? readCString(message, 6)[0] : undefined;
    default:
      return undefined;
  }
}

/** The same message with its statement name replaced (the rest of the body unchanged). */
export function withStatementName(message: Buffer, name: string): Buffer {
  const type = message[0]!;
  let start: number;
  if (type === Frontend.Parse) start = 5;
  else if (type === Frontend.Bind) start = readCString(message, 5)[1];
  else start = 6; // Describe / Close 'S'
  const end = message.indexOf(0, start);
  const body = Buffer.concat([
    message.subarray(5, start),
    Buffer.from(name, 'utf8'),
    message.subarray(end),
  ]);
  return typed(String.fromCharCode(type), body);
}
