import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineService, method } from './define';
import { exampleService } from './fixtures/example-service';
import { mergeOpenApi, openApiDocument, type OpenApiDocument } from './openapi';
import type { JsonObject } from './openapi-schema';

const document = openApiDocument(exampleService);
const op = (path: string, verb: string) => document.paths[path]?.[verb] as JsonObject;

/** Every `$ref` in the document, with whether it points at something. */
function refs(value: unknown, doc: OpenApiDocument, found: Array<[string, boolean]> = []) {
  if (Array.isArray(value)) value.forEach((item) => refs(item, doc, found));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') {
        const [, , section, name] = item.split('/');
        const target = (doc.components as Record<string, Record<string, unknown>>)[section ?? '']?.[
          name ?? ''
        ];
        found.push([item, target !== undefined]);
      } else refs(item, doc, found);
    }
  }
  return found;
}

function keysDeep(value: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => keysDeep(item, keys));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      keys.add(key);
      keysDeep(item, keys);
    }
  }
  return keys;
}

describe('openApiDocument', () => {
  it('describes the service, with prefixed paths and no servers', () => {
    expect(document.openapi).toBe('3.0.3');
    expect(document.info).toEqual({
      title: 'knowledge',
      version: '1.0.0',
      description: 'Knowledge base of uploaded documents. Questions to admin@example.com.',
    });
    expect(Object.keys(document.paths)).toEqual([
      '/moduleknowledge/query',
      '/moduleknowledge/upload',
      '/moduleknowledge/upload_many',
      '/moduleknowledge/login',
      '/moduleknowledge/chat',
      '/moduleknowledge/files/{id}',
      '/moduleknowledge/files',
      '/moduleknowledge/profile',
      '/moduleknowledge/settings',
      '/moduleknowledge/note',
      '/moduleknowledge/maybe',
      '/moduleknowledge/explode',
    ]);
    expect(document).not.toHaveProperty('servers');
  });

  it('uses the method name as operationId, once per route', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((o) => o.operationId),
    );
    expect(ids).toEqual(exampleService.routes.map((route) => route.name));
  });

  it('leaves out what the spec lists as unsupported', () => {
    expect(Object.keys(document)).toEqual(['openapi', 'info', 'tags', 'paths', 'components']);
    expect(Object.keys(document.components)).toEqual(['schemas', 'responses', 'securitySchemes']);
    const operationKeys = new Set(
      Object.values(document.paths).flatMap((item) =>
        Object.values(item).flatMap((o) => Object.keys(o)),
      ),
    );
    expect([...operationKeys].sort()).toEqual([
      'description',
      'operationId',
      'parameters',
      'requestBody',
      'responses',
      'security',
      'summary',
      'tags',
      'x-annotations',
    ]);
    const keys = keysDeep(document);
    for (const key of ['discriminator', 'xml', 'callbacks']) expect(keys.has(key), key).toBe(false);
  });

  it('names the bearer token on every route but those marked @role(guest) alone', () => {
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    const security = Object.fromEntries(
      Object.values(document.paths).flatMap((item) =>
        Object.values(item).map((o) => [o.operationId, o.security]),
      ),
    );
    for (const route of exampleService.routes) {
      const guest = route.roles?.every((role) => role === 'guest') ?? false;
      expect(security[route.name], route.name).toEqual(guest ? [] : [{ bearerAuth: [] }]);
    }
    expect(Object.values(security)).toContainEqual([]);
  });

  it('resolves every reference', () => {
    const found = refs(document, document);
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter(([, ok]) => !ok)).toEqual([]);
  });

  it('strips annotations from descriptions, adds roles, keeps annotations as an extension', () => {
    const query = op('/moduleknowledge/query', 'get');
    expect(query.description).toBe(
      'Similarity query over the knowledge base.\n\nRoles: USER, SUPER_ADMIN.',
    );
    expect(query['x-annotations']).toEqual([
      { name: 'grpc', params: [] },
      { name: 'role', params: ['USER', 'SUPER_ADMIN'] },
      { name: 'validate', params: ['top', 'gt=0', 'lte=50'] },
    ]);
    expect(op('/moduleknowledge/explode', 'post').description).toBe('Always fails.');
  });

  it('puts GET scalars and object fields in the query', () => {
    expect(op('/moduleknowledge/query', 'get').parameters).toEqual([
      { name: 'text', in: 'query', required: true, schema: { type: 'string', minLength: 1 } },
      {
        name: 'top',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ type: 'integer' }),
      },
    ]);
    expect(op('/moduleknowledge/files', 'get').parameters).toEqual([
      { name: 'owner', in: 'query', required: false, schema: { type: 'string' } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ type: 'integer' }),
      },
      {
        name: 'tags',
        in: 'query',
        required: false,
        schema: { type: 'array', items: { type: 'string' } },
      },
    ]);
  });

  it('puts path parameters in the path, always required', () => {
    for (const verb of ['get', 'delete']) {
      expect(op('/moduleknowledge/files/{id}', verb).parameters).toEqual([
        {
          name: 'id',
          in: 'path',
          required: true,
          schema: expect.objectContaining({ type: 'integer' }),
        },
      ]);
    }
  });

  it('describes a JSON body, with scalars beside it in the query', () => {
    const note = op('/moduleknowledge/note', 'post');
    expect(note.parameters).toEqual([
      { name: 'folder', in: 'query', required: true, schema: { type: 'string' } },
    ]);
    expect(note.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { text: { type: 'string' }, pinned: { type: 'boolean' } },
            required: ['text'],
          },
        },
      },
    });
  });

  it('describes form bodies as urlencoded or multipart, fields of a formRequest object included', () => {
    const body = op('/moduleknowledge/profile', 'put').requestBody as JsonObject;
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        age: expect.objectContaining({ type: 'integer' }),
        subscribed: { type: 'boolean' },
      },
      required: ['name'],
    };
    expect(body).toEqual({
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema },
        'multipart/form-data': { schema },
      },
    });
  });

  it('describes uploads as multipart with binary files and JSON parts', () => {
    expect(op('/moduleknowledge/upload', 'post').requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string' } },
            required: ['file'],
          },
        },
      },
    });
    const many = (op('/moduleknowledge/upload_many', 'post').requestBody as JsonObject)
      .content as JsonObject;
    expect(many['multipart/form-data']).toMatchObject({
      schema: {
        properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } },
      },
      encoding: { meta: { contentType: 'application/json' } },
    });
  });

  it('wraps data in the envelope and lists enums with UNKNOWN', () => {
    const settings = op('/moduleknowledge/settings', 'put');
    const form = ((settings.requestBody as JsonObject).content as Record<string, JsonObject>)[
      'application/x-www-form-urlencoded'
    ];
    expect(form).toMatchObject({
      schema: { properties: { theme: { type: 'string', enum: ['LIGHT', 'DARK', 'UNKNOWN'] } } },
    });
    expect((settings.responses as JsonObject)['200']).toMatchObject({
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data'],
            properties: { data: { properties: { theme: { enum: ['LIGHT', 'DARK', 'UNKNOWN'] } } } },
          },
        },
      },
    });
  });

  it.each([
    ['/moduleknowledge/query', 'get', ['200', '400', '401', '403', 'default']],
    // A route that takes a body answers 413 for one over its limit (body-limit.ts).
    ['/moduleknowledge/login', 'post', ['200', '400', '413', 'default']],
    ['/moduleknowledge/files/{id}', 'delete', ['204', '400', '401', '403', 'default']],
    ['/moduleknowledge/maybe', 'get', ['200', '204', '400', 'default']],
    ['/moduleknowledge/explode', 'post', ['200', 'default']],
  ])('lists the answers of %s %s', (path, verb, statuses) => {
    expect(Object.keys(op(path, verb).responses as JsonObject)).toEqual(statuses);
  });

  it('refers errors to the shared problem and plain-text responses', () => {
    const responses = op('/moduleknowledge/query', 'get').responses as JsonObject;
    expect(responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(responses.default).toEqual({ $ref: '#/components/responses/Problem' });
    expect(document.components.responses.Unauthorised).toEqual({
      description: 'No valid credential.',
      content: { 'text/plain': { schema: { type: 'string', enum: ['Unauthorised'] } } },
    });
    expect(document.components.schemas.Problem).toMatchObject({
      required: ['type', 'title', 'status', 'detail', 'code'],
      properties: { errors: { type: 'array' } },
    });
  });

  it('describes streams as text/event-stream with their named events', () => {
    const ok = (op('/moduleknowledge/chat', 'post').responses as Record<string, JsonObject>)['200'];
    const media = (ok?.content as Record<string, JsonObject>)['text/event-stream'];
    expect(media?.schema).toMatchObject({ properties: { content: { type: 'string' } } });
    expect(media?.['x-sse-events']).toEqual({
      error: { $ref: '#/components/schemas/Problem' },
      sources: { type: 'array', items: { type: 'string' } },
      done: expect.objectContaining({ properties: { chunks: { type: 'number' } } }),
    });
  });

  it('describes downloads with their media types and Content-Disposition', () => {
    const ok = (op('/moduleknowledge/files/{id}', 'get').responses as Record<string, JsonObject>)[
      '200'
    ];
    expect(ok).toMatchObject({
      headers: { 'Content-Disposition': { schema: { type: 'string' } } },
      content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    });
  });

  it('moves named and recursive schemas to components', () => {
    const Tree: z.ZodType = z.lazy(() => z.object({ name: z.string(), kids: z.array(Tree) }));
    const Point = z.object({ x: z.number() }).meta({ id: 'Point' });
    const service = defineService({
      name: 'geo',
      prefix: '/modulegeo',
      methods: {
        PostTree: method({
          params: { body: z.object({ tree: Tree, a: Point, b: Point }) },
          output: Point,
        }),
      },
    });
    const doc = openApiDocument(service);
    expect(Object.keys(doc.components.schemas).sort()).toEqual([
      'BodyTooLargeProblem',
      'Point',
      'Point2',
      'Problem',
      'Schema1',
    ]);
    expect(refs(doc, doc).filter(([, ok]) => !ok)).toEqual([]);
    expect(doc.components.schemas.Schema1).toMatchObject({
      properties: { kids: { items: { $ref: '#/components/schemas/Schema1' } } },
    });
  });

  it('names a schema it cannot describe', () => {
    const service = defineService({
      name: 'time',
      prefix: '/moduletime',
      methods: { GetNow: method({ output: z.date() }) },
    });
    expect(() => openApiDocument(service)).toThrow(/cannot describe this schema in OpenAPI/);
  });
});

describe('routes that take one kind of credential (@credential)', () => {
  const service = defineService({
    name: 'svc',
    prefix: '/modulesvc',
    methods: {
      PostUser: method({
        doc: 'Creates a user. @role(ADMIN) @credential(login)',
        params: { body: z.object({ name: z.string() }) },
      }),
      DeleteOwn: method({ doc: 'Ends it. @credential(login)' }),
      PostCompletion: method({ doc: 'Answers. @credential(key)', errorProtocol: 'openai' }),
      GetMe: method({ doc: 'Who.' }),
    },
  });
  const doc = openApiDocument(service);
  const opOf = (path: string, verb: string) => doc.paths[path]?.[verb] as JsonObject;

  it('says in the description which credential the route takes and how the other is refused', () => {
    expect(opOf('/modulesvc/user', 'post').description).toBe(
      'Creates a user.\n\nRoles: ADMIN.\n\n' +
        'Credential: a login token (`POST /moduleauth/login`) only; an API key is refused with 403 `login_required`.',
    );
    expect(opOf('/modulesvc/completion', 'post').description).toBe(
      'Answers.\n\n' +
        'Credential: an API key (`Authorization: Bearer kbc_…`) only; a login token is refused with 403 `api_key_required`.',
    );
    expect(opOf('/modulesvc/me', 'get').description).toBe('Who.');
    expect(opOf('/modulesvc/own', 'delete')['x-annotations']).toEqual([
      { name: 'credential', params: ['login'] },
    ]);
  });

  it('lists the 401 and the 403 of the refused credential', () => {
    const responses = (path: string, verb: string) => opOf(path, verb).responses as JsonObject;
    expect(responses('/modulesvc/user', 'post')['403']).toEqual({
      $ref: '#/components/responses/CredentialRefused',
    });
    expect(Object.keys(responses('/modulesvc/own', 'delete'))).toEqual([
      '204',
      '401',
      '403',
      'default',
    ]);
    expect(responses('/modulesvc/own', 'delete')['403']).toEqual({
      $ref: '#/components/responses/CredentialRefused',
    });
    // Another protocol's routes refuse in problem documents.
    expect(responses('/modulesvc/completion', 'post')['403']).toEqual({
      $ref: '#/components/responses/Problem',
    });
    expect(Object.keys(responses('/modulesvc/me', 'get'))).toEqual(['204', 'default']);
    expect(doc.components.responses.CredentialRefused).toMatchObject({
      content: {
        'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        'text/plain': { schema: { type: 'string', enum: ['Access denied'] } },
      },
    });
    expect(refs(doc, doc).filter(([, ok]) => !ok)).toEqual([]);
  });
});

describe('mergeOpenApi', () => {
  const auth = defineService({
    name: 'auth',
    prefix: '/moduleauth',
    methods: {
      PostLogin2: method({ doc: '@role(guest)', params: { body: z.object({ u: z.string() }) } }),
    },
  });

  it('joins the paths and shares the components of several modules', () => {
    const merged = mergeOpenApi([document, openApiDocument(auth)], {
      title: 'kbchat',
      version: '2.0.0',
    });
    expect(merged.info).toEqual({ title: 'kbchat', version: '2.0.0' });
    expect(Object.keys(merged.paths)).toContain('/moduleauth/login2');
    expect(Object.keys(merged.paths)).toContain('/moduleknowledge/query');
    expect(Object.keys(merged.components.schemas)).toEqual(['Problem', 'BodyTooLargeProblem']);
    expect(refs(merged, merged).filter(([, ok]) => !ok)).toEqual([]);
  });

  it('refuses a path twice', () => {
    expect(() => mergeOpenApi([document, document])).toThrow(
      /path \/moduleknowledge\/query is in two documents/,
    );
  });

  it('qualifies operation ids by module, so the same method name in two modules is fine', () => {
    const other = defineService({
      name: 'x',
      prefix: '/modulex',
      methods: { GetQuery: method({}) },
    });
    const merged = mergeOpenApi([document, openApiDocument(other)]);
    const ids = Object.values(merged.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(ids).toContain('x.GetQuery');
    expect(ids).toContain(`${document.info.title}.GetQuery`);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
