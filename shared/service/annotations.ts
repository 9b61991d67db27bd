/**
 * Annotations in doc text (spec 4.2, "Custom annotation rules").
 *
 * Grammar, as enforced by {@link parseAnnotations}:
 * - An annotation may stand anywhere in the text, with text around it.
 * - It starts with `@` at the start of the text or after a character that cannot end the local
 *   part of an e-mail address (anything but a letter, digit, `_`, `.`, `-`, `+`, `@`), so
 *   `admin@example.com` is prose, while `(@role(USER))` and `x, @grpc` are annotations.
 * - The name follows the `@` with no space: a letter or `_`, then letters, digits, `_`, `.`
 *   or `-`. An `@` followed by whitespace or the end of the text is prose (`meet @ noon`).
 * - Parentheses right after the name are mandatory and hold zero or more comma-separated
 *   parameters, each trimmed: `@x()` and `@x( )` have none; `@x(a, b)` has `a` and `b`.
 *   Parameters cannot contain parentheses, and an empty parameter in a list is an error.
 * - The one exception is `@grpc`, which the spec writes bare: it is accepted with or without
 *   `()`, and takes no parameters either way.
 *
 * Anything else that starts like an annotation is malformed and throws
 * {@link AnnotationSyntaxError}: `@(x)` (empty name), `@role` (no parentheses), `@role(x`
 * (unclosed), `@x(a,,b)` (empty parameter).
 */

export interface Annotation {
  readonly name: string;
  readonly params: readonly string[];
}

export class AnnotationSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnnotationSyntaxError';
  }
}

/** Annotations that may stand without parentheses. */
const BARE_ALLOWED = new Set(['grpc']);

const EMAIL_LOCAL_CHAR = /[A-Za-z0-9_.+@-]/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*/;

interface Found extends Annotation {
  readonly start: number;
  readonly end: number;
}

export function parseAnnotations(text: string): Annotation[] {
  return scan(text).map(({ name, params }) => ({ name, params }));
}

/**
 * The text with every annotation removed and the whitespace left behind tidied: runs of spaces
 * collapse, lines keep their breaks, and a line that held nothing but annotations disappears.
 */
export function stripAnnotations(text: string): string {
  const REMOVED = '\u0000';
  let marked = '';
  let at = 0;
  for (const found of scan(text)) {
    marked += text.slice(at, found.start) + REMOVED;
    at = found.end;
  }
  marked += text.slice(at);
  return marked
    .split('\n')
    .filter((line) => !(line.includes(REMOVED) && line.replaceAll(REMOVED, '').trim() === ''))
    .map((line) =>
      line
        .replaceAll(REMOVED, ' ')
        .replace(/[ \t]+/g, ' ')
        .trim(),
    )
    .join('\n')
    .trim();
}

function scan(text: string): Found[] {
  const found: Found[] = [];
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) {
    const before = i === 0 ? '' : text.charAt(i - 1);
    if (before !== '' && EMAIL_LOCAL_CHAR.test(before)) continue;
    const annotation = readAt(text, i);
    if (annotation) {
      found.push(annotation);
      i = annotation.end - 1;
    }
  }
  return found;
}

function readAt(text: string, at: number): Found | undefined {
  const rest = text.slice(at + 1);
  const next = rest.charAt(0);
  if (next === '' || /\s/.test(next)) return undefined;
  const name = NAME.exec(rest)?.[0];
  if (name === undefined) {
    if (next === '(') throw syntax(text, at, 'an annotation needs a name between "@" and "("');
    return undefined;
  }
  const open = at + 1 + name.length;
  if (text.charAt(open) !== '(') {
    if (BARE_ALLOWED.has(name)) return { name, params: [], start: at, end: open };
    throw syntax(text, at, `@${name} needs parentheses, e.g. @${name}() or @${name}(a, b)`);
  }
  const close = text.indexOf(')', open);
  const nested = text.indexOf('(', open + 1);
  if (close === -1) throw syntax(text, at, `@${name}( is not closed with ")"`);
  if (nested !== -1 && nested < close) {
    throw syntax(text, at, `@${name}(…) parameters cannot contain parentheses`);
  }
  const params = splitParams(text.slice(open + 1, close));
  if (params.includes('')) throw syntax(text, at, `@${name}(…) has an empty parameter`);
  if (BARE_ALLOWED.has(name) && params.length > 0) {
    throw syntax(text, at, `@${name} takes no parameters`);
  }
  return { name, params, start: at, end: close + 1 };
}

function splitParams(inside: string): string[] {
  if (inside.trim() === '') return [];
  return inside.split(',').map((param) => param.trim());
}

function syntax(text: string, at: number, message: string): AnnotationSyntaxError {
  const excerpt = text.slice(at, at + 40).split('\n')[0];
  return new AnnotationSyntaxError(`${message} (at "${excerpt}")`);
}
