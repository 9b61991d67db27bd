import type { z } from 'zod';
import { ERRORS, isErrorCode, type ErrorCode } from '../errors/catalogue';
import { parseAnnotations, type Annotation } from './annotations';
import { CREDENTIALS, type Credential } from './credential';
import { isFileDownloadSpec } from './file-download';
import { isRedirectSpec } from './redirect';
import { isWebResponseSpec } from './web-response';
import { httpMethodOf, routePathOf, type RoutePattern } from './naming';
import { planParams } from './param-plan';
import { isFileValue, shapeOf } from './schema-kind';
import type { MethodSpec, ResponsePlan, Route, TargetCheck } from './types';
import { compileTags, parseValidateRule } from './validate-tags';

/**
 * Turns one method declaration into its route, checking every built-in annotation:
 * - `@role(A, B, …)`: at least one role;
 * - `@path(/x/:id)`: one absolute path of literal and `:name` segments; repeated `@path` must
 *   agree;
 * - `@middleware(a, b)`: names of middlewares given to mountService;
 * - `@handler(formRequest | streamResponse)`: one value each, from that list;
 * - `@grpc`: no parameters;
 * - `@credential(login | key)`: one value, from that list; repeated `@credential` must agree;
 *   not on a `@role(guest)` route (which takes no credential);
 * - `@validate(target, tags…)`: see validate-tags.ts.
 * And the declaration's `errors`: catalogue codes, each once, of failure statuses the common
 * responses do not already describe (400, 401, 403), none a status the route's own `Response`
 * (webResponse) declares.
 * Anything else is free metadata, kept in the annotation stores.
 */

export class ServiceDeclarationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServiceDeclarationError';
  }
}

const METHOD_NAME = /^[A-Z][A-Za-z0-9]*$/;
const PATH =
  /^\/(?:(?:[A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*)(?:\/(?:[A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*))*)?$/;
const MIDDLEWARE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const HANDLERS = new Set(['formRequest', 'streamResponse']);

export function compileRoute(
  serviceName: string,
  prefix: string,
  name: string,
  spec: MethodSpec,
  options: { routePattern: RoutePattern; annotatedOnly: boolean },
): Route {
  const fail = (message: string): never => {
    throw new ServiceDeclarationError(`${serviceName}.${name}: ${message}`);
  };
  try {
    if (!METHOD_NAME.test(name)) {
      fail('method names start with a capital letter and hold only letters and digits');
    }
    const doc = spec.doc ?? '';
    const annotations = parseAnnotations(doc);
    const values = (annotation: string) =>
      annotations.filter((a) => a.name === annotation).map((a) => a.params);

    const handlers = values('handler').map((params) => {
      if (params.length !== 1 || !HANDLERS.has(params[0] ?? '')) {
        fail(
          `@handler takes one of ${[...HANDLERS].join(', ')}; got @handler(${params.join(', ')})`,
        );
      }
      return params[0];
    });
    const streaming = handlers.includes('streamResponse');
    const formRequest = handlers.includes('formRequest');

    const path = customPath(values('path'), fail) ?? routePathOf(name, options.routePattern);
    const roleParams = values('role');
    if (roleParams.some((params) => params.length === 0)) fail('@role needs at least one role');
    const credential = credentialOf(values('credential'), roleParams.flat(), fail);
    const middlewares = values('middleware').flat();
    for (const middleware of middlewares) {
      if (!MIDDLEWARE_NAME.test(middleware)) fail(`"${middleware}" is not a middleware name`);
    }
    if (values('middleware').some((params) => params.length === 0)) {
      fail('@middleware needs a middleware name');
    }

    const response = responseOf(spec, streaming, fail);
    const errors = declaredErrors(spec.errors ?? [], response, fail);
    const params = spec.params ?? {};
    const httpMethod = httpMethodOf(name);
    const pathParams = [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? '');
    const checks = validateChecks(annotations, params, fail);
    const plan = planParams(httpMethod, params, pathParams, formRequest, checks);

    const grpc = annotations.some((a) => a.name === 'grpc');
    const rpcCapable =
      response.kind !== 'stream' &&
      response.kind !== 'file' &&
      response.kind !== 'redirect' &&
      response.kind !== 'response' &&
      !Object.values(params).some((schema) => isFileValue(schema));
    if (grpc && !rpcCapable)
      fail('@grpc methods cannot stream, redirect, upload or download files');

    return {
      name,
      httpMethod,
      path,
      fullPath: path === '/' ? prefix : prefix + path,
      doc,
      annotations,
      roles: roleParams.length > 0 ? roleParams.flat() : undefined,
      credential,
      middlewares,
      body: plan.body,
      params: plan.params,
      response,
      rpc: rpcCapable && (grpc || !options.annotatedOnly),
      errorProtocol: spec.errorProtocol,
      errors,
    };
  } catch (err) {
    if (err instanceof ServiceDeclarationError) throw err;
    throw new ServiceDeclarationError(`${serviceName}.${name}: ${(err as Error).message}`);
  }
}

function customPath(
  paths: readonly (readonly string[])[],
  fail: (m: string) => never,
): string | undefined {
  const distinct = new Set(paths.map((params) => params.join(',')));
  if (distinct.size > 1) fail(`conflicting @path annotations: ${[...distinct].join(' and ')}`);
  const params = paths[0];
  if (params === undefined) return undefined;
  const path = params[0];
  if (params.length !== 1 || path === undefined) fail('@path takes exactly one path');
  if (!path!.startsWith('/')) fail(`@path(${path}) must start with "/"`);
  if (!PATH.test(path!)) {
    fail(
      `@path(${path}) may only hold literal segments and :name segments, without a trailing "/"`,
    );
  }
  return path;
}

function credentialOf(
  annotations: readonly (readonly string[])[],
  roles: readonly string[],
  fail: (m: string) => never,
): Credential | undefined {
  for (const params of annotations) {
    const [kind] = params;
    if (params.length !== 1 || !(CREDENTIALS as readonly string[]).includes(kind ?? '')) {
      fail(
        `@credential takes one of ${CREDENTIALS.join(', ')}; got @credential(${params.join(', ')})`,
      );
    }
  }
  const distinct = [...new Set(annotations.map(([kind]) => kind))];
  if (distinct.length > 1) fail(`conflicting @credential annotations: ${distinct.join(' and ')}`);
  if (distinct.length > 0 && roles.includes('guest')) {
    fail('@credential does not apply to a @role(guest) route, which takes no credential');
  }
  return distinct[0] as Credential | undefined;
}

function responseOf(
  spec: MethodSpec,
  streaming: boolean,
  fail: (m: string) => never,
): ResponsePlan {
  if (spec.stream && !streaming) fail('a `stream` schema needs @handler(streamResponse)');
  if (streaming && !spec.stream) fail('@handler(streamResponse) needs a `stream` message schema');
  if (spec.events && !spec.stream) fail('`events` only apply to streaming methods');
  if (spec.streamEnd !== undefined && !spec.stream) fail('`streamEnd` only applies to streams');
  if (spec.envelope === false && !spec.output) fail('`envelope: false` needs an `output`');
  if (spec.stream) {
    if (isFileDownloadSpec(spec.output)) fail('a streaming method cannot answer a file');
    if (isRedirectSpec(spec.output)) fail('a streaming method cannot redirect');
    if (isWebResponseSpec(spec.output)) fail('a streaming method cannot answer a Response');
    const events = spec.events ?? {};
    if ('message' in events) fail('"message" is the unnamed event; it cannot be declared');
    const end = spec.streamEnd;
    if (end !== undefined && (end === '' || /[\r\n]/.test(end))) {
      fail('`streamEnd` is one non-empty line');
    }
    return {
      kind: 'stream',
      message: spec.stream,
      events,
      ...(spec.output
        ? { output: { schema: spec.output as z.ZodType, envelope: spec.envelope ?? true } }
        : {}),
      ...(end !== undefined ? { end } : {}),
    };
  }
  if (isFileDownloadSpec(spec.output))
    return { kind: 'file', contentTypes: spec.output.contentTypes };
  if (isRedirectSpec(spec.output)) {
    if (spec.envelope === false) fail('`envelope: false` does not apply to a redirect');
    return { kind: 'redirect' };
  }
  if (isWebResponseSpec(spec.output)) {
    if (spec.envelope !== undefined) fail('a Response has no `envelope`');
    const { answers } = spec.output;
    if ('401' in answers || '403' in answers) {
      fail("a Response's 401 and 403 are the route's steps' refusals: leave them out");
    }
    return { kind: 'response', answers };
  }
  if (spec.output) {
    return { kind: 'data', schema: spec.output as z.ZodType, envelope: spec.envelope ?? true };
  }
  return { kind: 'empty' };
}

/** Statuses every route's document already describes where they apply. */
const COMMON_STATUSES = new Set([400, 401, 403]);

function declaredErrors(
  codes: readonly string[],
  response: ResponsePlan,
  fail: (m: string) => never,
): ErrorCode[] {
  const seen = new Set<string>();
  for (const code of codes) {
    if (!isErrorCode(code)) fail(`errors: "${code}" is not a code of the error catalogue`);
    if (seen.has(code)) fail(`errors: "${code}" is listed twice`);
    seen.add(code);
    const { status } = ERRORS[code as ErrorCode];
    if (status < 400 || COMMON_STATUSES.has(status)) {
      fail(`errors: "${code}" is a ${status}, which every route's description already covers`);
    }
    if (response.kind === 'response' && String(status) in response.answers) {
      fail(`errors: "${code}" is a ${status}, which the route's own Response declares`);
    }
  }
  return codes as ErrorCode[];
}

function validateChecks(
  annotations: readonly Annotation[],
  params: Record<string, z.ZodType>,
  fail: (m: string) => never,
): Map<string, TargetCheck[]> {
  const checks = new Map<string, TargetCheck[]>();
  for (const annotation of annotations) {
    if (annotation.name !== 'validate') continue;
    const rule = parseValidateRule(annotation.params);
    const [param, ...path] = rule.target.split('.');
    let schema: z.core.$ZodType | undefined = params[param ?? ''];
    if (!schema) fail(`@validate(${rule.target}) names no parameter`);
    for (const field of path) {
      schema = shapeOf(schema!)?.[field];
      if (!schema) fail(`@validate(${rule.target}): "${field}" is not a field of the object`);
    }
    const list = checks.get(param!) ?? [];
    list.push({ path, check: compileTags(rule.target, rule.tags, schema!) });
    checks.set(param!, list);
  }
  return checks;
}
