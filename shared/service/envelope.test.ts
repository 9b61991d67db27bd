import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createModuleApp } from '../module/module-app';
import { createClient } from './client';
import { defineService, method, ServiceDeclarationError } from './define';
import { mountService } from './mount';
import { openApiDocument } from './openapi';

const Jwks = z.object({ keys: z.array(z.object({ kid: z.string() })) });

const service = defineService({
  name: 'keys',
  prefix: '/modulekeys',
  methods: {
    GetJwks: method({ doc: '@path(/.well-known/jwks.json)', output: Jwks, envelope: false }),
    GetWrapped: method({ output: Jwks }),
  },
});

const jwks = { keys: [{ kid: 'k1' }] };

function app() {
  const module = createModuleApp({ prefix: '/modulekeys', defaultName: 'k', nameVariable: 'K' });
  return mountService(module, service, { GetJwks: () => jwks, GetWrapped: () => jwks });
}

describe('envelope: false', () => {
  it('answers the bare document; the default keeps {"data": …}', async () => {
    const bare = await app().request('/modulekeys/.well-known/jwks.json');
    expect(await bare.json()).toEqual(jwks);
    const wrapped = await app().request('/modulekeys/wrapped');
    expect(await wrapped.json()).toEqual({ data: jwks });
  });

  it('is described without the envelope in OpenAPI', () => {
    const doc = openApiDocument(service) as unknown as {
      paths: Record<
        string,
        {
          get: {
            responses: { 200: { content: Record<string, { schema: { properties?: object } }> } };
          };
        }
      >;
    };
    const bareSchema =
      doc.paths['/modulekeys/.well-known/jwks.json']!.get.responses[200].content[
        'application/json'
      ]!.schema;
    const wrappedSchema =
      doc.paths['/modulekeys/wrapped']!.get.responses[200].content['application/json']!.schema;
    expect(Object.keys(bareSchema.properties ?? {})).toEqual(['keys']);
    expect(Object.keys(wrappedSchema.properties ?? {})).toEqual(['data']);
  });

  it('is read back by the typed client', async () => {
    const mounted = app();
    const client = createClient(service, {
      baseUrl: 'http://kb.test/',
      fetch: async (request) => mounted.request(request),
    });
    expect(await client.GetJwks()).toEqual(jwks);
    expect(await client.GetWrapped()).toEqual(jwks);
  });

  it('needs an output', () => {
    expect(() =>
      defineService({ name: 'x', prefix: '/x', methods: { PostX: method({ envelope: false }) } }),
    ).toThrow(ServiceDeclarationError);
  });
});
