// Postgres SQLSTATE classes that mean "the database is not there", not "your query is wrong":
// 08 connection exception, 57P01-57P05 shutdown/cannot connect now/idle timeout, 53300 too many
// connections.
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-5]|53300)/;
// The WebSocket path's failures, and the HTTP path's: the proxy unreachable ("Error connecting
// to database"), down or waking (an HTTP 5xx from it), or no answer within the bound.
const UNAVAILABLE_MESSAGE =
  /websocket|econnrefused|econnreset|connection terminated|timeout exceeded when trying to connect|connect(ion)? (refused|closed|timed out)|network connection lost|error connecting to database|server error \(http status 5\d\d\)|aborted due to timeout/i;

/** True when an error means the database cannot be reached, so the answer is a 503. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') break;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
