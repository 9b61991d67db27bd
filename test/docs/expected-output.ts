/**
 * What a documented example shows as its output, and whether an actual output has that shape.
 *
 * The docs write an example's output as comment lines after its command, as a reader would
 * see it, with `…` where anything may stand:
 *
 *   # {"data":{"id":"3c40…","name":"policy.pdf","pages":1,"duplicate":false}}
 *   # {"data":[{"id":1,"similarity":0.58,…},…]}
 *   # event: done
 *   # data: {"request_id":"…","usage":{…}}
 *
 * JSON is compared by shape: every key shown must be there, with a value of the same type; a
 * string without `…` must be equal; an object or array without a `…` of its own must have
 * nothing more. A stream of Server-Sent Events is compared event by event, in order, with a
 * `…` line standing for any number of events. Anything else is compared line by line.
 */
export type Expected =
  | { kind: 'json'; value: unknown }
  | { kind: 'events'; events: ExpectedEvent[] }
  | { kind: 'lines'; lines: string[] };

export type ExpectedEvent =
  { gap: true } | { gap: false; event: string; data: Expected | undefined; comment?: string };

/** Stands for `…` where an object or array may have more. */
const MORE = '\u2026more\u2026';
/** Stands for `…` in place of a value: any value. */
const ANY = '\u2026any\u2026';

/** Parses the lines of an expected output (the comment marks already taken off). */
export function parseExpected(lines: readonly string[]): Expected {
  const first = lines[0]?.trim() ?? '';
  if (/^(data:|event:|: |:$)/.test(first) || lines.some((line) => /^event: /.test(line))) {
    return { kind: 'events', events: expectedEvents(lines) };
  }
  if (first.startsWith('{') || first.startsWith('[')) {
    try {
      return { kind: 'json', value: parseWithEllipses(lines.join('\n')) };
    } catch (err) {
      // Not JSON after all (an event stream's `[DONE]`): text, compared as it is.
      if (lines.length === 1 && !first.includes('…')) return { kind: 'lines', lines: [...lines] };
      throw err;
    }
  }
  return { kind: 'lines', lines: [...lines] };
}

function expectedEvents(lines: readonly string[]): ExpectedEvent[] {
  const events: ExpectedEvent[] = [];
  let name = 'message';
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (line.trim() === '…') events.push({ gap: true });
    else if (line.startsWith('event: ')) name = line.slice('event: '.length).trim();
    else if (line.startsWith('data: ')) {
      events.push({ gap: false, event: name, data: parseExpected([line.slice(6)]) });
      name = 'message';
    } else if (line.startsWith(':')) {
      events.push({ gap: false, event: 'comment', data: undefined, comment: line.slice(1).trim() });
    } else if (line.trim() !== '') {
      throw new Error(`not a line of an event stream: ${line}`);
    }
  }
  return events;
}

/**
 * JSON in which `…` may stand outside strings: in place of a value for "any value", elsewhere
 * in an object for "more keys", in an array for "more items". (Inside a string it stays, and
 * means "any string".)
 */
export function parseWithEllipses(text: string): unknown {
  let out = '';
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c);
    else if (c === '}' || c === ']') open.pop();
    if (c === '…') {
      const value = out.trimEnd().endsWith(':');
      out += value ? `"${ANY}"` : open.at(-1) === '{' ? `"${MORE}":null` : `"${MORE}"`;
      continue;
    }
    out += c;
  }
  return JSON.parse(out);
}

/** Where the actual output differs from the expected one (nothing: it matches). */
export function mismatches(expected: Expected, actual: string): string[] {
  if (expected.kind === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(actual);
    } catch {
      return [`expected JSON, got: ${actual.slice(0, 300)}`];
    }
    return shapeMismatches(expected.value, value, '$');
  }
  if (expected.kind === 'events') return eventMismatches(expected.events, parseEvents(actual));
  const got = actual.trimEnd().split('\n');
  return expected.lines.every((line, i) => line === got[i]) && got.length === expected.lines.length
    ? []
    : [`expected lines ${JSON.stringify(expected.lines)}, got ${JSON.stringify(got)}`];
}

export function shapeMismatches(expected: unknown, actual: unknown, at: string): string[] {
  if (expected === ANY) return [];
  if (typeof expected === 'string') {
    if (typeof actual !== 'string') return [`${at}: expected a string, got ${show(actual)}`];
    if (!expected.includes('…') && expected !== actual) {
      return [`${at}: expected ${show(expected)}, got ${show(actual)}`];
    }
    return [];
  }
  if (typeof expected === 'number' || typeof expected === 'boolean') {
    return typeof actual === typeof expected
      ? []
      : [`${at}: expected a ${typeof expected}, got ${show(actual)}`];
  }
  if (expected === null)
    return actual === null ? [] : [`${at}: expected null, got ${show(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${show(actual)}`];
    const more = expected.includes(MORE);
    const items = expected.filter((item) => item !== MORE);
    const found: string[] = [];
    if (actual.length < items.length || (!more && actual.length !== items.length)) {
      found.push(
        `${at}: expected ${more ? 'at least ' : ''}${items.length} items, got ${actual.length}`,
      );
    }
    items.forEach((item, i) => {
      if (i < actual.length) found.push(...shapeMismatches(item, actual[i], `${at}[${i}]`));
    });
    return found;
  }
  const shown = expected as Record<string, unknown>;
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
    return [`${at}: expected an object, got ${show(actual)}`];
  }
  const real = actual as Record<string, unknown>;
  const found: string[] = [];
  for (const [key, value] of Object.entries(shown)) {
    if (key === MORE) continue;
    if (!(key in real)) found.push(`${at}.${key}: missing`);
    else found.push(...shapeMismatches(value, real[key], `${at}.${key}`));
  }
  if (!(MORE in shown)) {
    const extra = Object.keys(real).filter((key) => !(key in shown));
    if (extra.length > 0) found.push(`${at}: not in the docs: ${extra.join(', ')}`);
  }
  return found;
}

export interface StreamEvent {
  event: string;
  data: string;
}

/** A Server-Sent Events body as its events (comments as events named `comment`). */
export function parseEvents(body: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const block of body.replace(/\r\n?/g, '\n').split(/\n\n+/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) events.push({ event: 'comment', data: line.slice(1).trim() });
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

function eventMismatches(expected: readonly ExpectedEvent[], actual: StreamEvent[]): string[] {
  let at = 0;
  let gap = false;
  for (const want of expected) {
    if (want.gap) {
      gap = true;
      continue;
    }
    const matches = (got: StreamEvent) =>
      got.event === want.event &&
      (want.event === 'comment'
        ? got.data === want.comment
        : want.data === undefined || mismatches(want.data, got.data).length === 0);
    let found = -1;
    for (let i = at; i < actual.length && (gap || i === at); i++) {
      if (matches(actual[i]!)) {
        found = i;
        break;
      }
    }
    if (found === -1) {
      const name = want.event === 'comment' ? `: ${want.comment}` : want.event;
      if (gap) return [`event ${name}: not in the rest of the stream`];
      const got = actual[at];
      const why =
        got && got.event === want.event && want.data
          ? mismatches(want.data, got.data).join('; ')
          : `got ${got ? `${got.event}: ${got.data.slice(0, 200)}` : 'the end of the stream'}`;
      return [`event ${name}: ${why}`];
    }
    at = found + 1;
    gap = false;
  }
  return gap || at === actual.length
    ? []
    : [
        `events not in the docs after the last one shown: ${actual
          .slice(at)
          .map((e) => e.event)
          .join(', ')}`,
      ];
}

const show = (value: unknown) => JSON.stringify(value)?.slice(0, 120) ?? String(value);
