import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineService, method } from './define';
import { exampleService } from './fixtures/example-service';
import { openApi30Schema } from './fixtures/openapi-3.0-schema';
import { mergeOpenApi, openApiDocument } from './openapi';

/**
 * Generated documents checked against the official OpenAPI 3.0 JSON Schema, with
 * `@cfworker/json-schema` (draft 4, no code generation, so it runs inside workerd).
 */
describe('generated documents are valid OpenAPI 3.0', () => {
  const validate = (document: unknown) => {
    const validator = new Validator(openApi30Schema, '4', false);
    const result = validator.validate(document);
    return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
  };

  it('accepts the example service, covering every parameter and answer kind', () => {
    expect(validate(openApiDocument(exampleService))).toEqual([]);
  });

  it('accepts named, recursive and merged schemas', () => {
    const Tree: z.ZodType = z.lazy(() => z.object({ name: z.string(), kids: z.array(Tree) }));
    const other = defineService({
      name: 'geo',
      prefix: '/modulegeo',
      doc: 'Shapes.',
      methods: {
        PostTree: method({
          doc: '@role(guest)',
          params: {
            body: z.object({ tree: Tree, p: z.object({ x: z.number() }).meta({ id: 'Point' }) }),
          },
          output: Tree,
        }),
      },
    });
    expect(validate(openApiDocument(other))).toEqual([]);
    expect(
      validate(mergeOpenApi([openApiDocument(exampleService), openApiDocument(other)])),
    ).toEqual([]);
  });

  it('rejects a broken document, so a pass above means something', () => {
    const broken = structuredClone(openApiDocument(exampleService)) as unknown as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string }> }>>;
    };
    broken.paths['/moduleknowledge/query']!.get!.parameters![0]!.in = 'body';
    expect(validate(broken)).not.toEqual([]);
  });
});
