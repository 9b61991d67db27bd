import type { z } from 'zod';
import { AppError, type FieldIssue } from '../errors/app-error';
import type { ParamPlan, Route } from './types';

/**
 * Validates raw parameter values against a route's schemas and `@validate` rules. Every
 * failing field is reported, not just the first. Field names are what the caller wrote: on
 * HTTP the query/form field or the path inside the JSON body (`username`, `tags.0`); on RPC,
 * where parameters are named, the parameter name first (`body.username`).
 */
export function validateParams(
  route: Route,
  raw: Record<string, unknown>,
  transport: 'http' | 'rpc',
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const issues: FieldIssue[] = [];
  for (const plan of route.params) {
    const result = plan.schema.safeParse(raw[plan.name], { error: requiredMessage });
    if (!result.success) {
      for (const issue of result.error.issues) {
        issues.push({ field: fieldName(plan, issue.path, transport), message: issue.message });
      }
      continue;
    }
    for (const { path, check } of plan.checks) {
      const failure = check(valueAt(result.data, path));
      if (failure !== undefined)
        issues.push({ field: fieldName(plan, path, transport), message: failure });
    }
    if (result.data !== undefined) params[plan.name] = result.data;
  }
  if (issues.length > 0) {
    throw new AppError('validation_failed', { errors: issues });
  }
  return params;
}

// Zod's own text for a missing value ("expected string, received undefined") reads oddly.
const requiredMessage: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined;

/** Parameters that spread into their own fields on the wire report those fields bare. */
const SPREAD_SOURCES = new Set(['json-body', 'query-fields', 'form-fields']);

function fieldName(
  plan: ParamPlan,
  path: readonly PropertyKey[],
  transport: 'http' | 'rpc',
): string {
  const inside = path.map(String);
  if (transport === 'http' && SPREAD_SOURCES.has(plan.source) && inside.length > 0) {
    return inside.join('.');
  }
  return [plan.name, ...inside].join('.');
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
