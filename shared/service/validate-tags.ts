import { z } from 'zod';
import { valueKindOf, type ValueKind } from './schema-kind';

/**
 * `@validate(<target>, <tag>, <tag>, …)`: go-playground validator tags applied on top of a
 * parameter's zod schema (spec 4.2, "A `@validate(...)` annotation on a parameter").
 *
 * Annotation parameters are comma-separated, and so are go-playground tags, so the first
 * parameter names the target and every further parameter is one tag: the go-playground tag
 * string `gt=0,lte=60` on parameter `top` is written `@validate(top, gt=0, lte=60)`. The target
 * is a parameter name or a dotted path into an object parameter (`@validate(body.username,
 * min=3, max=50)`). Several `@validate` for one target add up.
 *
 * Tags (n is a number; sizes are characters of a string — Unicode code points, as go-playground
 * counts runes —, the value of a number, the item count of an array):
 * - `required`: present, and not an empty string or array. Unlike Go, `0` and `false` pass:
 *   optionality is stated by the schema, so there is no zero value to guard against;
 * - `omitempty`: when the value is absent or empty, skip every other tag;
 * - `min=n`, `max=n`, `len=n`: size at least, at most, exactly n;
 * - `gt=n`, `gte=n`, `lt=n`, `lte=n`: size greater than, at least, less than, at most n;
 * - `email`: a string in e-mail address form;
 * - `oneof=a b c`: one of the space-separated values.
 * An absent optional value only meets `required`; the other tags check values that are there.
 * Unknown tags, missing or non-numeric arguments, and tags that do not fit the target's type
 * (`email` on a number) are declaration errors.
 */

export type TagName =
  | 'required'
  | 'omitempty'
  | 'min'
  | 'max'
  | 'len'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'email'
  | 'oneof';

export interface Tag {
  readonly name: TagName;
  readonly arg: string | undefined;
}

export interface ValidateRule {
  /** The target as written: a parameter name, or `param.field.field…`. */
  readonly target: string;
  readonly tags: readonly Tag[];
}

/** Checks one value; returns the reason it fails, or undefined when it passes. */
export type TagCheck = (value: unknown) => string | undefined;

export class ValidateTagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValidateTagError';
  }
}

const SIZE_TAGS = new Set<TagName>(['min', 'max', 'len', 'gt', 'gte', 'lt', 'lte']);
const FLAG_TAGS = new Set<TagName>(['required', 'omitempty', 'email']);
const ALL_TAGS = new Set<string>([...SIZE_TAGS, ...FLAG_TAGS, 'oneof']);
const SIZED_KINDS = new Set<ValueKind>(['string', 'number', 'bigint', 'array']);
const ONEOF_KINDS = new Set<ValueKind>(['string', 'number', 'bigint', 'enum', 'literal']);
const TARGET = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;

/** Reads the parameters of one `@validate(…)` annotation. */
export function parseValidateRule(params: readonly string[]): ValidateRule {
  const [target, ...tagTexts] = params;
  if (target === undefined || !TARGET.test(target)) {
    throw new ValidateTagError(
      `@validate needs a parameter name first, e.g. @validate(top, gt=0, lte=60); got "${target ?? ''}"`,
    );
  }
  if (tagTexts.length === 0) throw new ValidateTagError(`@validate(${target}) names no tag`);
  return { target, tags: tagTexts.map((text) => parseTag(target, text)) };
}

function parseTag(target: string, text: string): Tag {
  const eq = text.indexOf('=');
  const name = (eq === -1 ? text : text.slice(0, eq)).trim();
  const arg = eq === -1 ? undefined : text.slice(eq + 1).trim();
  if (!ALL_TAGS.has(name))
    throw new ValidateTagError(`@validate(${target}): unknown tag "${name}"`);
  const tag = { name: name as TagName, arg };
  if (FLAG_TAGS.has(tag.name) && arg !== undefined) {
    throw new ValidateTagError(`@validate(${target}): "${name}" takes no value`);
  }
  if (
    SIZE_TAGS.has(tag.name) &&
    (arg === undefined || !Number.isFinite(Number(arg)) || arg === '')
  ) {
    throw new ValidateTagError(`@validate(${target}): "${name}" needs a number, e.g. ${name}=1`);
  }
  if (tag.name === 'oneof' && (arg === undefined || arg === '')) {
    throw new ValidateTagError(`@validate(${target}): "oneof" needs values, e.g. oneof=a b`);
  }
  return tag;
}

/** Builds the check for the tags of a target whose schema is `schema`. */
export function compileTags(
  target: string,
  tags: readonly Tag[],
  schema: z.core.$ZodType,
): TagCheck {
  const kind = valueKindOf(schema);
  for (const tag of tags) assertFits(target, tag, kind);
  const omitEmpty = tags.some((tag) => tag.name === 'omitempty');
  const checks = tags.filter((tag) => tag.name !== 'omitempty').map((tag) => checkOf(tag));
  return (value) => {
    if (omitEmpty && isEmpty(value)) return undefined;
    for (const check of checks) {
      const failure = check(value);
      if (failure !== undefined) return failure;
    }
    return undefined;
  };
}

function assertFits(target: string, tag: Tag, kind: ValueKind): void {
  const fits =
    tag.name === 'required' || tag.name === 'omitempty'
      ? true
      : tag.name === 'email'
        ? kind === 'string'
        : tag.name === 'oneof'
          ? ONEOF_KINDS.has(kind)
          : SIZED_KINDS.has(kind);
  if (!fits) {
    throw new ValidateTagError(`@validate(${target}): "${tag.name}" does not apply to a ${kind}`);
  }
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

function checkOf(tag: Tag): TagCheck {
  if (tag.name === 'required') return (value) => (isEmpty(value) ? 'is required' : undefined);
  if (tag.name === 'email') {
    const email = z.email();
    return (value) =>
      value === undefined || value === null || email.safeParse(value).success
        ? undefined
        : 'must be a valid e-mail address';
  }
  if (tag.name === 'oneof') {
    const options = (tag.arg ?? '').split(/\s+/).filter((option) => option !== '');
    return (value) =>
      value === undefined || value === null || options.includes(String(value))
        ? undefined
        : `must be one of: ${options.join(', ')}`;
  }
  return sizeCheck(tag.name, Number(tag.arg));
}

type Measured = { size: number; unit: 'characters' | 'items' | undefined };

function measure(value: unknown): Measured | undefined {
  if (typeof value === 'string') return { size: [...value].length, unit: 'characters' };
  if (Array.isArray(value)) return { size: value.length, unit: 'items' };
  if (typeof value === 'number') return { size: value, unit: undefined };
  if (typeof value === 'bigint') return { size: Number(value), unit: undefined };
  return undefined;
}

const SIZE_RULES: Record<string, { pass: (size: number, n: number) => boolean; says: string }> = {
  min: { pass: (size, n) => size >= n, says: 'at least' },
  gte: { pass: (size, n) => size >= n, says: 'at least' },
  max: { pass: (size, n) => size <= n, says: 'at most' },
  lte: { pass: (size, n) => size <= n, says: 'at most' },
  len: { pass: (size, n) => size === n, says: 'exactly' },
  gt: { pass: (size, n) => size > n, says: 'more than' },
  lt: { pass: (size, n) => size < n, says: 'less than' },
};

function sizeCheck(name: TagName, n: number): TagCheck {
  const rule = SIZE_RULES[name];
  if (!rule) throw new ValidateTagError(`not a size tag: ${name}`);
  return (value) => {
    const measured = measure(value);
    if (measured === undefined || rule.pass(measured.size, n)) return undefined;
    if (measured.unit === 'characters')
      return `must be ${rule.says} ${plural(n, 'character')} long`;
    if (measured.unit === 'items') return `must contain ${rule.says} ${plural(n, 'item')}`;
    return `must be ${rule.says} ${n}`;
  };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
