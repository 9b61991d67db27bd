/** An error and its causes on one line: drizzle wraps the driver's reason in `cause`. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e && parts.length < 5; e = (e as { cause?: unknown }).cause) {
    const text = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    if (text && !parts.includes(text)) parts.push(text);
    if (!(e instanceof Error)) break;
  }
  return parts.join(': ') || 'unknown error';
}
