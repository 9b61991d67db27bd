export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

// Field names whose values must never reach a log line, whatever a caller passes.
const SECRET_KEY =
  /pass(word)?|secret|token|authorization|api[-_]?key|private[-_]?key|hash|dsn|database_url|cookie/i;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** Structured JSON logs, one object per line, as Workers Logs and `wrangler tail` expect. */
export function createLogger(base: LogFields, level: LogLevel = 'info'): Logger {
  const write = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    const line = JSON.stringify({
      level: lvl,
      msg: redactText(msg),
      ...redact(base),
      ...redact(fields),
    });
    if (lvl === 'error') console.error(line);
    else if (lvl === 'warn') console.warn(line);
    else console.log(line);
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    child: (fields) => createLogger({ ...base, ...fields }, level),
  };
}

function redact(fields: LogFields | undefined): LogFields {
  return fields ? (redactValue(fields, 0) as LogFields) : {};
}

// Nested objects and arrays too, to a bounded depth; deeper than that is dropped, not printed.
function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: LogFields = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : redactValue(item, depth + 1);
  }
  return out;
}

// Values that are secrets whatever their key: stored password hashes, bearer tokens and API
// keys (`kbc_…`, also in a field named `key`). The scheme is case-insensitive (RFC 7235), as
// the service itself reads it.
const SECRET_TEXT =
  /pbkdf2-sha256\$[^\s"',]+|\bBearer\s+[\w.~+/-]+=*|eyJ[\w-]+\.[\w-]+\.[\w-]+|\bkbc_[\w-]+/gi;

export function redactText(text: string): string {
  const redacted = text.replace(SECRET_TEXT, '[redacted]');
  // A credential may come percent-encoded (a key put in a URL, `kbc%5F…`): the text is checked
  // decoded too, and shown decoded when that finds one.
  if (!text.includes('%')) return redacted;
  const decoded = percentDecoded(redacted);
  const decodedRedacted = decoded.replace(SECRET_TEXT, '[redacted]');
  return decodedRedacted === decoded ? redacted : decodedRedacted;
}

/** Percent-decoded, twice at most (a doubly encoded URL), and only the sequences that decode. */
function percentDecoded(text: string): string {
  let out = text;
  for (let round = 0; round < 2 && /%[0-9a-f]{2}/i.test(out); round++) {
    out = out.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
  return out;
}

export function parseLogLevel(value: string | undefined): LogLevel {
  return value === 'debug' || value === 'warn' || value === 'error' ? value : 'info';
}
