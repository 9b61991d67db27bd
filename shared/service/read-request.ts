import type { Context } from 'hono';
import { AppError } from '../errors/app-error';
import { coerceText, elementOf } from './schema-kind';
import type { FieldPlan, ParamPlan, Route } from './types';

type FormValue = string | File;
type Form = Record<string, FormValue | FormValue[]>;

/**
 * Collects a route's raw parameter values from the request, each from the place param-plan.ts
 * assigned it, with text converted to numbers and booleans where the schema wants them.
 * Validation is left to validateParams.
 */
export async function readParams(route: Route, c: Context): Promise<Record<string, unknown>> {
  const body = await readBody(route, c);
  const raw: Record<string, unknown> = {};
  for (const plan of route.params) {
    const value = await readParam(plan, c, body);
    if (value !== undefined) raw[plan.name] = value;
  }
  return raw;
}

type Body = { form: Form; json: unknown };

async function readBody(route: Route, c: Context): Promise<Body> {
  const empty: Body = { form: {}, json: undefined };
  if (route.body === 'none') return empty;
  const type = mediaType(c.req.header('Content-Type'));
  if (type === '' && !(await hasBody(c))) return empty;
  if (route.body === 'json') {
    if (!isJson(type)) throw unsupported(route, 'application/json');
    return { form: {}, json: await readJson(c) };
  }
  const accepted =
    route.body === 'multipart'
      ? ['multipart/form-data']
      : ['application/x-www-form-urlencoded', 'multipart/form-data'];
  if (!accepted.includes(type)) throw unsupported(route, accepted.join(' or '));
  return { form: await readForm(c, type), json: undefined };
}

/**
 * The form fields. The runtime's parser throws a TypeError for a body it cannot read (no
 * boundary, a truncated body, part headers with raw line breaks or NUL bytes): that is the
 * client's mistake, a 400, not a 500.
 */
async function readForm(c: Context, type: string): Promise<Form> {
  try {
    return (await c.req.parseBody({ all: true })) as Form;
  } catch (err) {
    throw new AppError('malformed_body', {
      detail: `The request body is not valid ${type}.`,
      cause: err,
    });
  }
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function isJson(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

async function hasBody(c: Context): Promise<boolean> {
  if (c.req.raw.body === null) return false;
  return (await c.req.text()) !== '';
}

// JSON is UTF-8 (RFC 8259): bytes that are not are refused, never silently replaced by U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

async function readJson(c: Context): Promise<unknown> {
  let text: string;
  try {
    text = UTF8.decode(await c.req.arrayBuffer());
  } catch {
    throw new AppError('malformed_json', { detail: 'The request body is not valid UTF-8.' });
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('malformed_json');
  }
}

function unsupported(route: Route, expected: string): AppError {
  return new AppError('unsupported_media_type', {
    detail: `${route.name} expects a ${expected} body.`,
  });
}

async function readParam(plan: ParamPlan, c: Context, body: Body): Promise<unknown> {
  switch (plan.source) {
    case 'path':
      return coerceText(plan.schema, c.req.param(plan.name));
    case 'query':
      return coerceText(plan.schema, queryValue(c, plan.name, isList(plan)));
    case 'form':
      return coerceField(plan, body.form[plan.name]);
    case 'query-fields':
      return spread(plan, (field) =>
        coerceText(field.schema, queryValue(c, field.name, isList(field))),
      );
    case 'form-fields':
      return spread(plan, (field) => coerceField(field, body.form[field.name]));
    case 'json-body':
      return body.json;
    case 'json-part':
      return jsonPart(body.form[plan.name]);
    case 'file':
      return fileValue(plan, body.form[plan.name]);
  }
}

function isList(plan: { schema: ParamPlan['schema'] }): boolean {
  return elementOf(plan.schema) !== undefined;
}

function queryValue(c: Context, name: string, list: boolean): string | string[] | undefined {
  return list ? c.req.queries(name) : c.req.query(name);
}

/** Form text converted per schema; a file sent where text is expected goes on for the schema to reject. */
function coerceField(field: FieldPlan, value: FormValue | FormValue[] | undefined): unknown {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (values.some((item) => typeof item !== 'string')) return value;
  return coerceText(field.schema, value as string | string[] | undefined);
}

/** An object whose fields each travel on their own; absent entirely when no field was sent. */
function spread(
  plan: ParamPlan,
  read: (field: FieldPlan) => unknown,
): Record<string, unknown> | undefined {
  const value: Record<string, unknown> = {};
  for (const field of plan.fields) {
    const fieldValue = read(field);
    if (fieldValue !== undefined) value[field.name] = fieldValue;
  }
  // A required object reports its missing fields one by one rather than "object is required".
  return Object.keys(value).length === 0 && plan.optional ? undefined : value;
}

async function jsonPart(value: FormValue | FormValue[] | undefined): Promise<unknown> {
  const part = Array.isArray(value) ? value[0] : value;
  if (part === undefined) return undefined;
  const text = typeof part === 'string' ? part : await part.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('malformed_json', { detail: 'A multipart field is not valid JSON.' });
  }
}

function fileValue(plan: ParamPlan, value: FormValue | FormValue[] | undefined): unknown {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return isList(plan) ? values : values[0];
}
