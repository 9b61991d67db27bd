import { CANCEL_REQUEST, GSSENC_REQUEST, SSL_REQUEST } from './pg-protocol.ts';

/** What {@link FrontendScanner} reports for an untyped message (startup, SSL, cancel). */
export const UNTYPED = 0;

/**
 * Follows a client's bytes to a Postgres server as they stream by, in chunks that split
 * messages anywhere, and reports each message's type (the first byte of a typed message,
 * {@link UNTYPED} for the startup-phase messages). Only headers are kept: message bodies,
 * which can be megabytes of INSERT, are skipped, never buffered.
 */
export class FrontendScanner {
  private startup = true;
  private header = Buffer.alloc(0);
  private remaining = 0;
  private readonly onMessage: (type: number) => void;

  constructor(onMessage: (type: number) => void) {
    this.onMessage = onMessage;
  }

  scan(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const step = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= step;
        offset += step;
        continue;
      }
      // Startup phase: Int32 length, Int32 code. Then: Byte1 type, Int32 length.
      const size = this.startup ? 8 : 5;
      const part = chunk.subarray(offset, offset + size - this.header.length);
      this.header = Buffer.concat([this.header, part]);
      offset += part.length;
      if (this.header.length < size) return;
      if (this.startup) {
        const code = this.header.readInt32BE(4);
        this.remaining = Math.max(0, this.header.readInt32BE(0) - 8);
        // After an SSL or GSSAPI request the client sends another startup-phase message.
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST) {
          this.startup = false;
        }
        this.onMessage(UNTYPED);
      } else {
        this.remaining = Math.max(0, this.header.readInt32BE(1) - 4);
        this.onMessage(this.header[0]!);
      }
      this.header = Buffer.alloc(0);
    }
  }
}
