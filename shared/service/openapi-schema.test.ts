import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiSchema, SchemaComponents } from './openapi-schema';
import { fileParam } from './schema-kind';

describe('SchemaComponents', () => {
  it('reuses a repeated schema and suffixes a different one under the same name', () => {
    const components = new SchemaComponents();
    const a = components.hoist({ $ref: '#/definitions/X', definitions: { X: { type: 'string' } } });
    const again = components.hoist({
      $ref: '#/definitions/X',
      definitions: { X: { type: 'string' } },
    });
    const other = components.hoist({
      $ref: '#/definitions/X',
      definitions: { X: { type: 'number' } },
    });
    expect([a, again, other]).toEqual([
      { $ref: '#/components/schemas/X' },
      { $ref: '#/components/schemas/X' },
      { $ref: '#/components/schemas/X2' },
    ]);
    expect(components.schemas).toEqual({ X: { type: 'string' }, X2: { type: 'number' } });
  });

  it('keeps references between hoisted definitions', () => {
    const components = new SchemaComponents();
    components.hoist({ definitions: { X: { type: 'string' } } });
    const schema = components.hoist({
      $ref: '#/definitions/Y',
      definitions: { X: { type: 'number' }, Y: { items: { $ref: '#/definitions/X' } } },
    });
    expect(schema).toEqual({ $ref: '#/components/schemas/Y' });
    expect(components.schemas.Y).toEqual({ items: { $ref: '#/components/schemas/X2' } });
  });
});

describe('openApiSchema', () => {
  it('describes inputs and outputs in the OpenAPI 3.0 dialect', () => {
    const components = new SchemaComponents();
    const schema = z.object({ a: z.string().nullable(), b: z.number().default(1) });
    expect(openApiSchema(schema, 'input', components)).toEqual({
      type: 'object',
      properties: { a: { type: 'string', nullable: true }, b: { type: 'number', default: 1 } },
      required: ['a'],
    });
    expect(openApiSchema(schema, 'output', components)).toMatchObject({
      required: ['a', 'b'],
      additionalProperties: false,
    });
  });

  it('describes files as binary strings', () => {
    const components = new SchemaComponents();
    expect(openApiSchema(z.object({ f: fileParam() }), 'input', components)).toMatchObject({
      properties: { f: { type: 'string', format: 'binary' } },
    });
  });

  it('refuses what JSON Schema cannot express', () => {
    expect(() =>
      openApiSchema(z.string().transform(Number), 'output', new SchemaComponents()),
    ).toThrow(/cannot describe this schema in OpenAPI/);
  });
});
