/** The SQLSTATE of a database error, however deep the driver and drizzle wrapped it. */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A limit a database function raised: its name (the MESSAGE), and DETAIL's "<used> <allowed>". */
export interface RaisedLimit {
  limit: string;
  used?: number;
  allowed?: number;
}

/**
 * The limit a database function named in its MESSAGE (one of `names`) with its DETAIL
 * "<used> <allowed>", however deep the driver and drizzle wrapped the error; undefined when no
 * error of the chain names one. A count DETAIL does not give is left out, never guessed.
 */
export function raisedLimit(err: unknown, names: readonly string[]): RaisedLimit | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const { message, detail } = e as { message?: unknown; detail?: unknown };
    const name = typeof message === 'string' ? message.trim() : '';
    if (names.includes(name)) {
      const [used, allowed] = (typeof detail === 'string' ? detail.trim().split(/\s+/) : []).map(
        countOf,
      );
      return {
        limit: name,
        ...(used !== undefined ? { used } : {}),
        ...(allowed !== undefined ? { allowed } : {}),
      };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const countOf = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined);
