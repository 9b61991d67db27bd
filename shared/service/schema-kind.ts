import { z } from 'zod';

/**
 * What the library needs to know about a parameter's zod schema: is it optional, is it a file,
 * an object, a list, a number… Zod 4 exposes its definitions as `schema._zod.def`; wrappers
 * (optional, nullable, default, catch, readonly, lazy, preprocess/pipe) are looked through.
 */

type AnySchema = z.core.$ZodType;

const fileSchemas = new WeakSet<AnySchema>();

/**
 * A file parameter (spec 4.2: "A file upload uses the framework's file model type"). The
 * request becomes multipart and the part carrying the file is named after the parameter.
 * Wrap it for variations: `fileParam().optional()`, `z.array(fileParam())`.
 */
export function fileParam() {
  const schema = z.custom<File>((value) => value instanceof File, { error: 'Expected a file' });
  fileSchemas.add(schema);
  return schema;
}

export function isFileSchema(schema: AnySchema): boolean {
  return fileSchemas.has(schema);
}

/** True when the key may be absent: `.optional()`, `.default()`, `.catch()` and the like. */
export function isOptional(schema: AnySchema): boolean {
  return schema._zod.optin !== undefined;
}

/** The schema under its wrappers: the one that decides what kind of value it is. */
export function baseOf(schema: AnySchema): AnySchema {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    const next = innerOf(current);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

function innerOf(schema: AnySchema): AnySchema | undefined {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType as AnySchema;
    case 'lazy':
      return (def.getter as () => AnySchema)();
    case 'pipe': {
      const from = def.in as AnySchema;
      // A preprocess pipe starts with a transform; the value's kind is its target's.
      return from._zod.def.type === 'transform' ? (def.out as AnySchema) : from;
    }
    default:
      return undefined;
  }
}

export type ValueKind =
  | 'string'
  | 'number'
  | 'bigint'
  | 'boolean'
  | 'date'
  | 'enum'
  | 'literal'
  | 'file'
  | 'array'
  | 'object'
  | 'record'
  | 'other';

export function valueKindOf(schema: AnySchema): ValueKind {
  if (isFileSchema(schema)) return 'file';
  const base = baseOf(schema);
  if (isFileSchema(base)) return 'file';
  switch (base._zod.def.type) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'date':
    case 'enum':
    case 'literal':
    case 'array':
    case 'object':
    case 'record':
      return base._zod.def.type;
    case 'template_literal':
      return 'string';
    default:
      return 'other';
  }
}

/** The element schema of an array schema (after unwrapping). */
export function elementOf(schema: AnySchema): AnySchema | undefined {
  const base = baseOf(schema);
  if (base._zod.def.type !== 'array') return undefined;
  return (base._zod.def as unknown as { element: AnySchema }).element;
}

/** The field schemas of an object schema (after unwrapping). */
export function shapeOf(schema: AnySchema): Record<string, AnySchema> | undefined {
  const base = baseOf(schema);
  if (base._zod.def.type !== 'object') return undefined;
  return (base._zod.def as unknown as { shape: Record<string, AnySchema> }).shape;
}

const SCALARS: ReadonlySet<ValueKind> = new Set([
  'string',
  'number',
  'bigint',
  'boolean',
  'date',
  'enum',
  'literal',
]);

/** A value that fits in one query-string or form field. */
export function isScalar(schema: AnySchema): boolean {
  return SCALARS.has(valueKindOf(schema));
}

/** A scalar or a list of scalars: what the query string and form fields can carry. */
export function isFieldValue(schema: AnySchema): boolean {
  const element = elementOf(schema);
  return isScalar(schema) || (element !== undefined && isScalar(element));
}

export function isFileValue(schema: AnySchema): boolean {
  const element = elementOf(schema);
  return (
    valueKindOf(schema) === 'file' || (element !== undefined && valueKindOf(element) === 'file')
  );
}

/**
 * Turns text from a query string, form field or path segment into what the schema expects, so
 * `?top=5` satisfies `z.number()` and `?all=true` satisfies `z.boolean()`. Text that does not
 * convert is passed on unchanged for the schema to reject with its own message; an empty text
 * for a non-string value counts as absent, as an empty HTML form field would.
 */
export function coerceText(schema: AnySchema, raw: string | string[] | undefined): unknown {
  if (raw === undefined) return undefined;
  const element = elementOf(schema);
  if (element !== undefined) {
    const items = Array.isArray(raw) ? raw : [raw];
    return items.map((item) => coerceScalar(element, item));
  }
  const text = Array.isArray(raw) ? raw[0] : raw;
  return text === undefined ? undefined : coerceScalar(schema, text);
}

function coerceScalar(schema: AnySchema, text: string): unknown {
  const kind = valueKindOf(schema);
  if (kind === 'string' || kind === 'other' || kind === 'file') return text;
  if (text.trim() === '' && kind !== 'enum' && kind !== 'literal') return undefined;
  switch (kind) {
    case 'number':
      return toNumber(text) ?? text;
    case 'bigint':
      return /^-?\d+$/.test(text.trim()) ? BigInt(text.trim()) : text;
    case 'boolean':
      return toBoolean(text) ?? text;
    case 'date': {
      const date = new Date(text);
      return Number.isNaN(date.getTime()) ? text : date;
    }
    case 'enum':
    case 'literal':
      return matchOption(schema, text);
    default:
      return text;
  }
}

// A number as people write one in a query string or a form: decimal digits, an optional sign
// and fraction. Not `Number()`'s wider grammar: " 10", "0x10" (16), "1e1", "" and "Infinity"
// are refused as not numbers, rather than silently read as something else.
const DECIMAL = /^-?\d+(\.\d+)?$/;

function toNumber(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

function toBoolean(text: string): boolean | undefined {
  const lower = text.trim().toLowerCase();
  if (lower === 'true' || lower === '1' || lower === 'on') return true;
  if (lower === 'false' || lower === '0' || lower === 'off') return false;
  return undefined;
}

/** Enum and literal options may be numbers or booleans: pick the option the text spells. */
function matchOption(schema: AnySchema, text: string): unknown {
  const base = baseOf(schema);
  const values = (base._zod as { values?: Set<unknown> }).values;
  if (!values || values.has(text)) return text;
  for (const option of values) {
    if (String(option) === text) return option;
  }
  return text;
}
