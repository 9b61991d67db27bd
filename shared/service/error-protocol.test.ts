import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors/app-error';
import { createModuleApp } from '../module/module-app';
import { accessDenied, unauthorised } from './auth-failure';
import { defineService, method } from './define';
import { mountService } from './mount';
import { openApiDocument } from './openapi';

/**
 * `errorProtocol: 'openai'`: a route of OpenAI's protocol, whose SDKs read a failure only from
 * `{"error": {…}}`, answers problem documents that also carry it; the spec's routes do not.
 */
const Answer = z.object({ text: z.string() });
const service = defineService({
  name: 'door',
  prefix: '/moduledoor',
  methods: {
    CreateCompletion: method({
      doc: '@path(/v1/completions) @role(USER)',
      params: { body: z.object({ prompt: z.string().min(1) }) },
      output: Answer,
      envelope: false,
      errorProtocol: 'openai',
    }),
    PostAsk: method({
      doc: '@role(USER)',
      params: { body: z.object({ prompt: z.string().min(1) }) },
      output: Answer,
    }),
  },
});

function app() {
  const module = createModuleApp({ prefix: '/moduledoor', defaultName: 'd', nameVariable: 'D' });
  const answer = ({ body }: { body: { prompt: string } }) => {
    if (body.prompt === 'busy')
      throw new AppError('database_unavailable', { detail: 'Try again later.' });
    return { text: body.prompt };
  };
  return mountService(
    module,
    service,
    { CreateCompletion: answer, PostAsk: answer },
    {
      authorize: (access) => {
        const auth = (access.caller.transport === 'http' &&
          access.caller.context.req.header('Authorization')) as string | undefined;
        if (!auth) throw unauthorised('no token');
        if (auth === 'Bearer guest') throw accessDenied('wrong role');
        return {};
      },
    },
  );
}

const post = (path: string, body: unknown, token = 'user') =>
  app().request(`/moduledoor${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

describe("errorProtocol: 'openai'", () => {
  it('adds OpenAI’s error object to a refusal, naming the field at fault', async () => {
    const res = await post('/v1/completions', { prompt: '' });
    expect(res.status).toBe(400);
    expect(res.headers.get('Content-Type')).toBe('application/problem+json');
    const problem = await res.json<{ detail: string; code: string; error: unknown }>();
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(problem.error).toEqual({
      message: problem.detail,
      type: 'invalid_request_error',
      param: 'prompt',
      code: 'validation_failed',
    });
  });

  it('adds it to a failure of the implementation', async () => {
    const res = await post('/v1/completions', { prompt: 'busy' });
    expect(res.status).toBe(503);
    expect((await res.json<{ error: unknown }>()).error).toEqual({
      message: 'Try again later.',
      type: 'service_unavailable',
      param: null,
      code: 'database_unavailable',
    });
  });

  it('answers 401 and 403 as problem documents with it, the challenge kept', async () => {
    const res = await post('/v1/completions', { prompt: 'hi' }, '');
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(await res.json()).toMatchObject({
      code: 'unauthenticated',
      error: { message: 'Unauthorised', type: 'invalid_request_error', code: 'unauthenticated' },
    });
    const denied = await post('/v1/completions', { prompt: 'hi' }, 'guest');
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: 'permission_denied' } });
  });

  it('leaves the spec’s routes as they are: no error member, plain-text 401', async () => {
    const res = await post('/ask', { prompt: '' });
    expect(res.status).toBe(400);
    expect(await res.json()).not.toHaveProperty('error');
    const unauthenticated = await post('/ask', { prompt: 'hi' }, '');
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.text()).toBe('Unauthorised');
  });

  it('documents the member and the JSON refusals in OpenAPI', () => {
    const doc = openApiDocument(service) as unknown as {
      paths: Record<string, { post: { responses: Record<string, { $ref: string }> } }>;
      components: { schemas: { Problem: { properties: Record<string, unknown> } } };
    };
    expect(doc.components.schemas.Problem.properties).toHaveProperty('error');
    expect(doc.paths['/moduledoor/v1/completions']!.post.responses['401']!.$ref).toBe(
      '#/components/responses/Problem',
    );
    expect(doc.paths['/moduledoor/ask']!.post.responses['401']!.$ref).toBe(
      '#/components/responses/Unauthorised',
    );
  });
});
