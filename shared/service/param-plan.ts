import type { z } from 'zod';
import type { HttpMethod } from './naming';
import { isFieldValue, isFileValue, isOptional, shapeOf, valueKindOf } from './schema-kind';
import type { BodyKind, FieldPlan, ParamPlan, ParamShape, ParamSource, TargetCheck } from './types';

/**
 * Where each parameter travels over HTTP (spec 4.2, "Parameter mapping for HTTP"):
 *
 * - A `:name` segment of the route path fills the parameter of that name, for every verb.
 * - GET and DELETE have no body. Scalars (and lists of scalars) are query parameters; an
 *   object's fields are query parameters, one per field. Files and other structures cannot
 *   travel there and are declaration errors.
 * - POST and PUT:
 *   - with a file parameter the body is multipart: scalars are form fields, files are parts
 *     named after the parameter, and an object is a part holding JSON text — or its fields are
 *     form fields under `@handler(formRequest)`;
 *   - with `@handler(formRequest)` the body is a form (urlencoded or multipart): scalars are
 *     fields, an object's fields are fields;
 *   - with an object parameter (or a list, record, union… of structures) that parameter is the
 *     JSON body; there may only be one; scalars then travel in the query string, as Go's
 *     ParseForm reads them from the URL when the body is JSON;
 *   - with scalars only, the body is a form (urlencoded or multipart).
 */

export class ParamPlanError extends Error {}

export interface MethodPlan {
  readonly body: BodyKind;
  readonly params: ParamPlan[];
}

type Kind = 'field' | 'file' | 'object' | 'structure';

function kindOf(schema: z.ZodType): Kind {
  if (isFileValue(schema)) return 'file';
  if (isFieldValue(schema)) return 'field';
  if (valueKindOf(schema) === 'object') return 'object';
  return 'structure';
}

export function planParams(
  httpMethod: HttpMethod,
  params: ParamShape,
  pathParams: readonly string[],
  formRequest: boolean,
  checks: ReadonlyMap<string, TargetCheck[]>,
): MethodPlan {
  for (const name of pathParams) {
    const schema = params[name];
    if (!schema) throw new ParamPlanError(`path segment :${name} names no parameter`);
    if (kindOf(schema) !== 'field' || valueKindOf(schema) === 'array') {
      throw new ParamPlanError(`path parameter "${name}" must be a single scalar value`);
    }
  }
  const entries = Object.entries(params).filter(([name]) => !pathParams.includes(name));
  const kinds = new Map(entries.map(([name, schema]) => [name, kindOf(schema)]));
  const has = (kind: Kind) => [...kinds.values()].includes(kind);
  const bodyless = httpMethod === 'GET' || httpMethod === 'DELETE';
  if (bodyless && formRequest) {
    throw new ParamPlanError(`@handler(formRequest) needs a request body; ${httpMethod} has none`);
  }

  let body: BodyKind;
  let sourceOf: (name: string, kind: Kind) => ParamSource;
  if (bodyless) {
    body = 'none';
    sourceOf = (name, kind) => {
      if (kind === 'field') return 'query';
      if (kind === 'object') return 'query-fields';
      throw new ParamPlanError(
        `parameter "${name}" cannot travel in a ${httpMethod} query string; use scalars or a flat object`,
      );
    };
  } else if (has('file')) {
    body = 'multipart';
    sourceOf = (_, kind) =>
      kind === 'field'
        ? 'form'
        : kind === 'file'
          ? 'file'
          : kind === 'object' && formRequest
            ? 'form-fields'
            : 'json-part';
  } else if (formRequest) {
    body = 'form';
    sourceOf = (name, kind) => {
      if (kind === 'field') return 'form';
      if (kind === 'object') return 'form-fields';
      throw new ParamPlanError(`parameter "${name}" cannot travel as form fields`);
    };
  } else if (has('object') || has('structure')) {
    const bodies = entries.filter(([name]) => kinds.get(name) !== 'field').map(([name]) => name);
    if (bodies.length > 1) {
      throw new ParamPlanError(
        `only one parameter can be the JSON body, found ${bodies.join(', ')}; merge them into one object`,
      );
    }
    body = 'json';
    sourceOf = (_, kind) => (kind === 'field' ? 'query' : 'json-body');
  } else {
    body = entries.length > 0 ? 'form' : 'none';
    sourceOf = () => 'form';
  }

  const plans: ParamPlan[] = Object.entries(params).map(([name, schema]) => {
    const kind = kinds.get(name);
    const source: ParamSource = kind === undefined ? 'path' : sourceOf(name, kind);
    const fields =
      source === 'query-fields' || source === 'form-fields' ? fieldsOf(name, schema) : [];
    return {
      name,
      schema,
      optional: source !== 'path' && isOptional(schema),
      source,
      fields,
      checks: checks.get(name) ?? [],
    };
  });
  assertUniqueWireNames(plans);
  return { body, params: plans };
}

function fieldsOf(name: string, schema: z.ZodType): FieldPlan[] {
  const shape = shapeOf(schema) ?? {};
  return Object.entries(shape).map(([field, fieldSchema]) => {
    if (!isFieldValue(fieldSchema as z.ZodType)) {
      throw new ParamPlanError(
        `field "${name}.${field}" cannot travel as a query parameter or form field; use scalars`,
      );
    }
    return { name: field, schema: fieldSchema as z.ZodType };
  });
}

/** Query parameters and form fields share one namespace per request part. */
function assertUniqueWireNames(plans: readonly ParamPlan[]): void {
  const seen = new Map<string, string>();
  for (const plan of plans) {
    const part = plan.source.startsWith('query')
      ? 'query'
      : plan.source === 'path'
        ? 'path'
        : 'body';
    const names =
      plan.source === 'query-fields' || plan.source === 'form-fields'
        ? plan.fields.map((field) => field.name)
        : plan.source === 'json-body'
          ? []
          : [plan.name];
    for (const name of names) {
      const key = `${part}:${name}`;
      const owner = seen.get(key);
      if (owner !== undefined) {
        throw new ParamPlanError(
          `"${name}" is sent twice in the ${part} (by ${owner} and ${plan.name})`,
        );
      }
      seen.set(key, plan.name);
    }
  }
}
