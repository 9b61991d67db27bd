import type { z } from 'zod';
import { ERRORS, type ErrorCode, type ErrorEntry } from '../errors/catalogue';
import type { Language } from '../i18n/language';
import { stripAnnotations } from './annotations';
import { openApiSchema, SchemaComponents, type JsonObject } from './openapi-schema';
import { OPENAPI_WORDS, type OpenApiWords } from './openapi-words';
import { isOptional } from './schema-kind';
import type { ParamPlan, Route, Service } from './types';
import type { WebAnswer } from './web-response';

/**
 * The OpenAPI 3.0.3 description of a service (spec 4.2, "Generated outputs").
 *
 * - Paths carry the module prefix (`/moduleknowledge/query`) and there is no `servers`
 *   entry, so documents of several modules merge into one root document without rewriting.
 * - operationId is the method name. The description is the doc text with its annotations
 *   removed; roles and the one credential a `@credential` route takes, which OpenAPI cannot
 *   express (both are bearer tokens), are added as sentences, and every annotation is kept
 *   verbatim in the `x-annotations` extension.
 * - Answers: 200 `{"data": …}`, 204, `text/event-stream` (message schema, named events in
 *   `x-sse-events`, a completed stream's last raw line in `x-sse-end`; a streaming method with
 *   an `output` also lists `application/json`), a file with Content-Disposition, a route's own
 *   `Response` (webResponse) under each status it declares; errors refer to the Problem schema;
 *   401/403 (plain text) on routes with a `@role` other than `guest` alone; on `@credential`
 *   routes 401 and a 403 that is also the problem of the refused credential. The codes a route
 *   declares (`errors`) are listed under their status, each as a Problem that also has its
 *   catalogue entry's members (`<Code>Problem`: `allOf` the Problem and them), with the
 *   entry's headers (a 429's Retry-After).
 * - One security scheme, `bearerAuth` (`Authorization: Bearer <token>`), named by the
 *   `security` of every route not marked `@role(guest)` alone (those get `security: []`): the
 *   token check every module applies wants a token there. Documentation tools offer a token
 *   field from it and send it when trying a route. Roles still go in the description.
 * - One tag per module (its name, described by the service's doc), on every operation: the
 *   reference groups routes by module. Each operation's `summary` is the first sentence of its
 *   doc, its roles after it in brackets (`Creates a user [SUPER_ADMIN]`); in Chinese, the
 *   module's summaries (shared/contracts/summaries-zh.ts) and every sentence the document
 *   writes itself (openapi-words.ts: the shared answers, roles, credentials, a declared code's
 *   words from the catalogue) are Chinese; the routes' longer doc texts stay as written.
 * - No callbacks, discriminators or xml: the spec lists them as unsupported.
 */

export interface OpenApiDocument {
  openapi: '3.0.3';
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

const BEARER = 'bearerAuth';
const securitySchemes = (says: OpenApiWords): Record<string, JsonObject> => ({
  [BEARER]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: says.bearer },
});

/** The document in another language than English: its summaries and the module's doc. */
export interface OpenApiLanguage {
  language: Language;
  /** By method name: every route's summary in that language. */
  summaries: Readonly<Record<string, string>>;
  /** The module's description (its tag's and the document's). */
  moduleDoc?: string;
}

const ENGLISH: OpenApiLanguage = { language: 'en', summaries: {} };

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };
const FIELD_ISSUE: JsonObject = {
  type: 'object',
  required: ['field', 'message'],
  properties: { field: { type: 'string' }, message: { type: 'string' } },
};
const problemSchema = (says: OpenApiWords): JsonObject => ({
  type: 'object',
  description: says.problemSchema,
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', enum: ['about:blank'] },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    request_id: { type: 'string' },
    errors: { type: 'array', items: FIELD_ISSUE },
    error: {
      type: 'object',
      description: says.openAiError,
      required: ['message', 'type', 'param', 'code'],
      properties: {
        message: { type: 'string' },
        type: { type: 'string' },
        param: { type: 'string', nullable: true },
        code: { type: 'string' },
      },
    },
  },
});
const problemContent = { 'application/problem+json': { schema: PROBLEM_REF } };
const plainText = (text: string) => ({
  'text/plain': { schema: { type: 'string', enum: [text] } },
});
/** The answers every route may give, described in the document's language. */
const responses = (says: OpenApiWords): Record<string, JsonObject> => ({
  Problem: { description: says.problem, content: problemContent },
  BadRequest: { description: says.badRequest, content: problemContent },
  Unauthorised: { description: says.unauthorised, content: plainText('Unauthorised') },
  AccessDenied: { description: says.accessDenied, content: plainText('Access denied') },
  CredentialRefused: {
    description: says.credentialRefused,
    content: { ...problemContent, ...plainText('Access denied') },
  },
});
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

export function openApiDocument(
  service: Service,
  words: OpenApiLanguage = ENGLISH,
): OpenApiDocument {
  const says = OPENAPI_WORDS[words.language];
  const components = new SchemaComponents();
  components.schemas.Problem = problemSchema(says);
  const paths: OpenApiDocument['paths'] = {};
  for (const route of service.routes) {
    const path = route.fullPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.httpMethod.toLowerCase()] = {
      tags: [service.name],
      summary: summaryOf(route, words),
      ...operation(route, components, says),
    };
  }
  const description = words.moduleDoc ?? stripAnnotations(service.doc);
  return {
    openapi: '3.0.3',
    info: {
      title: service.name,
      version: service.version,
      ...(description ? { description } : {}),
    },
    tags: [{ name: service.name, ...(description ? { description } : {}) }],
    paths,
    components: {
      schemas: components.schemas,
      responses: responses(says),
      securitySchemes: securitySchemes(says),
    },
  };
}

/**
 * The first sentence of a doc text, without its full stop: up to a `.`, `!` or `?` followed by
 * the end or by a space and what starts a sentence (a capital, a quote, code, a parenthesis).
 */
export function firstSentence(text: string): string {
  const flat = stripAnnotations(text).replace(/\s+/g, ' ').trim();
  const end = /[.!?](?= [A-Z`"“(]|$)/.exec(flat);
  return end ? flat.slice(0, end.index) : flat;
}

/** The route's summary in the document's language, with its roles in brackets. */
function summaryOf(route: Route, words: OpenApiLanguage): string {
  const sentence = words.summaries[route.name] ?? firstSentence(route.doc);
  return route.roles ? `${sentence} [${route.roles.join(', ')}]` : sentence;
}

function operation(route: Route, components: SchemaComponents, says: OpenApiWords): JsonObject {
  const schema = (s: z.core.$ZodType, io: 'input' | 'output') => openApiSchema(s, io, components);
  const parameters = route.params.flatMap((plan) => parameterObjects(plan, schema));
  const requestBody = requestBodyOf(route, schema);
  const description = describe(route, says);
  return {
    operationId: route.name,
    ...(description ? { description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(route, schema, components, says),
    security: guestOnly(route) ? [] : [{ [BEARER]: [] }],
    ...(route.annotations.length > 0
      ? { 'x-annotations': route.annotations.map(({ name, params }) => ({ name, params })) }
      : {}),
  };
}

function describe(route: Route, says: OpenApiWords): string {
  const text = stripAnnotations(route.doc);
  const roles = route.roles ? says.roles(route.roles) : '';
  const credential = route.credential ? says.credential[route.credential] : '';
  return [text, roles, credential].filter((part) => part !== '').join('\n\n');
}

type ToSchema = (schema: z.core.$ZodType, io: 'input' | 'output') => JsonObject;

function parameterObjects(plan: ParamPlan, schema: ToSchema): JsonObject[] {
  const one = (name: string, s: z.core.$ZodType, where: 'query' | 'path', required: boolean) => {
    const { description, ...body } = schema(s, 'input');
    return {
      name,
      in: where,
      required,
      ...(typeof description === 'string' ? { description } : {}),
      schema: body,
    };
  };
  switch (plan.source) {
    case 'path':
      return [one(plan.name, plan.schema, 'path', true)];
    case 'query':
      return [one(plan.name, plan.schema, 'query', !plan.optional)];
    case 'query-fields':
      return plan.fields.map((field) =>
        one(field.name, field.schema, 'query', !plan.optional && !isOptional(field.schema)),
      );
    default:
      return [];
  }
}

function requestBodyOf(route: Route, schema: ToSchema): JsonObject | undefined {
  if (route.body === 'none') return undefined;
  if (route.body === 'json') {
    const plan = route.params.find((p) => p.source === 'json-body');
    if (!plan) return undefined;
    return {
      required: !plan.optional,
      content: { 'application/json': { schema: schema(plan.schema, 'input') } },
    };
  }
  const properties: Record<string, JsonObject> = {};
  const required: string[] = [];
  const encoding: Record<string, JsonObject> = {};
  const addField = (name: string, s: z.core.$ZodType, mandatory: boolean) => {
    properties[name] = schema(s, 'input');
    if (mandatory) required.push(name);
  };
  for (const plan of route.params) {
    if (plan.source === 'form' || plan.source === 'file' || plan.source === 'json-part') {
      addField(plan.name, plan.schema, !plan.optional);
    }
    if (plan.source === 'json-part') encoding[plan.name] = { contentType: 'application/json' };
    if (plan.source === 'form-fields') {
      for (const field of plan.fields) {
        addField(field.name, field.schema, !plan.optional && !isOptional(field.schema));
      }
    }
  }
  const form = {
    schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  };
  const content =
    route.body === 'multipart'
      ? {
          'multipart/form-data': {
            ...form,
            ...(Object.keys(encoding).length > 0 ? { encoding } : {}),
          },
        }
      : { 'application/x-www-form-urlencoded': form, 'multipart/form-data': form };
  return { required: required.length > 0, content };
}

function responsesOf(
  route: Route,
  schema: ToSchema,
  components: SchemaComponents,
  says: OpenApiWords,
): JsonObject {
  // Integer-like keys keep numeric order whatever the insertion order: 2xx before 4xx.
  const responses: JsonObject = {
    ...successResponses(route, schema, says),
    ...declaredErrors(errorsOf(route), schema, components, says),
  };
  if (route.params.length > 0) responses['400'] = responseRef('BadRequest');
  if ((route.roles && !guestOnly(route)) || route.credential) {
    // Another protocol's clients read JSON: its routes refuse in problem documents.
    const forbidden = route.credential ? 'CredentialRefused' : 'AccessDenied';
    responses['401'] = responseRef(route.errorProtocol ? 'Problem' : 'Unauthorised');
    responses['403'] = responseRef(route.errorProtocol ? 'Problem' : forbidden);
  }
  responses.default = responseRef('Problem');
  return responses;
}

/**
 * The codes a route answers beyond the common refusals: those it declares and, for a route that
 * takes a body, the 413 of a body over its limit (every mounted route has one: body-limit.ts),
 * unless it declares its own.
 */
function errorsOf(route: Route): readonly ErrorCode[] {
  const ownLimit = route.errors.some((code) => (ERRORS[code] as ErrorEntry).overLimitBody);
  return route.body === 'none' || ownLimit ? route.errors : [...route.errors, 'body_too_large'];
}

/** Routes marked `@role(guest)` alone: open to callers without a token. */
const guestOnly = (route: Route) =>
  route.roles?.every((role) => role.toLowerCase() === 'guest') ?? false;

function successResponses(route: Route, schema: ToSchema, says: OpenApiWords): JsonObject {
  const response = route.response;
  switch (response.kind) {
    case 'empty':
      return { '204': { description: says.done } };
    case 'data': {
      const document = schema(response.schema, 'output');
      const envelope = response.envelope
        ? { type: 'object', required: ['data'], properties: { data: document } }
        : document;
      return {
        '200': {
          description: response.envelope ? says.resultAsData : says.result,
          content: { 'application/json': { schema: envelope } },
        },
        ...(isOptional(response.schema) ? { '204': { description: says.noResult } } : {}),
      };
    }
    case 'stream': {
      const events: Record<string, JsonObject> = { error: PROBLEM_REF };
      for (const [name, event] of Object.entries(response.events))
        events[name] = schema(event, 'output');
      const { output, end } = response;
      const plain = output && schema(output.schema, 'output');
      return {
        '200': {
          description: says.stream(end, output !== undefined),
          content: {
            'text/event-stream': {
              schema: schema(response.message, 'output'),
              'x-sse-events': events,
              ...(end !== undefined ? { 'x-sse-end': end } : {}),
            },
            ...(plain
              ? {
                  'application/json': {
                    schema: output.envelope
                      ? { type: 'object', required: ['data'], properties: { data: plain } }
                      : plain,
                  },
                }
              : {}),
          },
        },
      };
    }
    case 'response':
      return Object.fromEntries(
        Object.entries(response.answers).map(([status, answer]) => [
          status,
          webAnswer(answer, schema),
        ]),
      );
    case 'redirect':
      return {
        '302': {
          description: says.redirect,
          headers: { Location: { schema: { type: 'string' } } },
        },
      };
    case 'file':
      return {
        '200': {
          description: says.file,
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="…"; filename*=UTF-8\'\'…',
              schema: { type: 'string' },
            },
          },
          content: Object.fromEntries(
            response.contentTypes.map((type) => [
              type,
              { schema: { type: 'string', format: 'binary' } },
            ]),
          ),
        },
      };
  }
}

function webAnswer(answer: WebAnswer, schema: ToSchema): JsonObject {
  const body = answer.schema && schema(answer.schema, 'output');
  return {
    description: answer.description,
    ...(answer.headers ? { headers: headerObjects(answer.headers, schema) } : {}),
    ...(answer.contentTypes?.length
      ? {
          content: Object.fromEntries(
            answer.contentTypes.map((type) => [type, body ? { schema: body } : {}]),
          ),
        }
      : {}),
  };
}

function headerObjects(headers: Readonly<Record<string, z.ZodType>>, schema: ToSchema) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, s]) => {
      const { description, ...body } = schema(s, 'output');
      return [name, { ...(typeof description === 'string' ? { description } : {}), schema: body }];
    }),
  );
}

/**
 * The responses of the codes a route declares, by status: each code's problem with its own
 * members, its words and headers. Several codes of one status: one of their problems.
 */
function declaredErrors(
  codes: readonly ErrorCode[],
  schema: ToSchema,
  components: SchemaComponents,
  says: OpenApiWords,
): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: JsonObject = {};
  for (const [status, group] of byStatus) {
    const problems = group.map((code) => problemOf(code, schema, components, says));
    const entries: ErrorEntry[] = group.map((code) => ERRORS[code]);
    const headers = Object.assign({}, ...entries.map((entry) => entry.headers ?? {})) as Record<
      string,
      z.ZodType
    >;
    responses[String(status)] = {
      description: group.map((code) => says.error(code)).join('\n\n'),
      ...(Object.keys(headers).length > 0 ? { headers: headerObjects(headers, schema) } : {}),
      content: {
        'application/problem+json': {
          schema: problems.length === 1 ? problems[0] : { oneOf: problems },
        },
      },
    };
  }
  return responses;
}

/** `quota_exceeded` → a reference to `QuotaExceededProblem`, added to the components. */
function problemOf(
  code: ErrorCode,
  schema: ToSchema,
  components: SchemaComponents,
  says: OpenApiWords,
): JsonObject {
  const name = `${code.replace(/(?:^|_)([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Problem`;
  if (!components.schemas[name]) {
    const { status, members }: ErrorEntry = ERRORS[code];
    // The members' properties only: the object's own `additionalProperties: false` would
    // refuse the problem's fields, which the allOf's other half describes.
    const own = members ? schema(members, 'output') : {};
    const properties = (own.properties ?? {}) as Record<string, JsonObject>;
    const required = (own.required ?? []) as string[];
    components.schemas[name] = {
      description: says.problemOf(code, members !== undefined),
      allOf: [
        PROBLEM_REF,
        {
          type: 'object',
          required: ['status', 'code', ...required],
          properties: {
            status: { type: 'integer', enum: [status] },
            code: { type: 'string', enum: [code] },
            ...properties,
          },
        },
      ],
    };
  }
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * One document for several modules (the root description). Paths must not repeat. Every
 * module has its own GetHealth and the like, so operation ids are qualified by the module
 * (`auth.GetHealth`); shared schemas are merged, a name taken by a different schema gets a
 * suffix.
 */
export function mergeOpenApi(
  documents: readonly OpenApiDocument[],
  info: OpenApiDocument['info'] = { title: 'API', version: '1.0.0' },
): OpenApiDocument {
  const components = new SchemaComponents();
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  const responses: Record<string, JsonObject> = {};
  const securitySchemes: Record<string, JsonObject> = {};
  const tags = documents.flatMap((document) => document.tags ?? []);
  for (const document of documents) {
    const hoisted = components.hoist(
      { definitions: document.components.schemas, paths: document.paths },
      '#/components/schemas/',
    ) as { paths: OpenApiDocument['paths'] };
    for (const [path, item] of Object.entries(hoisted.paths)) {
      if (paths[path]) throw new Error(`mergeOpenApi: path ${path} is in two documents`);
      const qualified: typeof item = {};
      for (const [verb, op] of Object.entries(item)) {
        const id = `${document.info.title}.${String(op.operationId)}`;
        if (operationIds.has(id))
          throw new Error(`mergeOpenApi: operationId ${id} is in two documents`);
        operationIds.add(id);
        qualified[verb] = { ...op, operationId: id };
      }
      paths[path] = qualified;
    }
    Object.assign(responses, document.components.responses);
    Object.assign(securitySchemes, document.components.securitySchemes);
  }
  return {
    openapi: '3.0.3',
    info,
    ...(tags.length > 0 ? { tags } : {}),
    paths,
    components: { schemas: components.schemas, responses, securitySchemes },
  };
}
