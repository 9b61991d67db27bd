import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpMethod } from './naming';
import { planParams } from './param-plan';
import { fileParam } from './schema-kind';
import type { ParamShape } from './types';

const text = z.string();
const object = z.object({ a: z.string(), n: z.number().optional() });

function plan(
  method: HttpMethod,
  params: ParamShape,
  options: { path?: string[]; form?: boolean } = {},
) {
  const result = planParams(method, params, options.path ?? [], options.form ?? false, new Map());
  return {
    body: result.body,
    sources: Object.fromEntries(result.params.map((p) => [p.name, p.source])),
  };
}

describe('planParams', () => {
  it.each<[string, HttpMethod, ParamShape, { path?: string[]; form?: boolean }, unknown]>([
    [
      'GET scalars',
      'GET',
      { q: text, n: z.number() },
      {},
      { body: 'none', sources: { q: 'query', n: 'query' } },
    ],
    [
      'DELETE list',
      'DELETE',
      { ids: z.array(z.number()) },
      {},
      { body: 'none', sources: { ids: 'query' } },
    ],
    [
      'GET object',
      'GET',
      { filter: object },
      {},
      { body: 'none', sources: { filter: 'query-fields' } },
    ],
    [
      'path segment',
      'PUT',
      { id: z.number(), body: object },
      { path: ['id'] },
      { body: 'json', sources: { id: 'path', body: 'json-body' } },
    ],
    ['POST scalars', 'POST', { a: text }, {}, { body: 'form', sources: { a: 'form' } }],
    ['POST nothing', 'POST', {}, {}, { body: 'none', sources: {} }],
    [
      'POST object and scalar',
      'POST',
      { q: text, body: object },
      {},
      { body: 'json', sources: { q: 'query', body: 'json-body' } },
    ],
    [
      'POST record',
      'POST',
      { map: z.record(z.string(), z.number()) },
      {},
      { body: 'json', sources: { map: 'json-body' } },
    ],
    [
      'PUT formRequest',
      'PUT',
      { profile: object, x: text },
      { form: true },
      { body: 'form', sources: { profile: 'form-fields', x: 'form' } },
    ],
    [
      'POST file',
      'POST',
      { f: fileParam(), note: text, meta: object },
      {},
      { body: 'multipart', sources: { f: 'file', note: 'form', meta: 'json-part' } },
    ],
    [
      'POST files + formRequest',
      'POST',
      { f: z.array(fileParam()), meta: object },
      { form: true },
      { body: 'multipart', sources: { f: 'file', meta: 'form-fields' } },
    ],
  ])('%s', (_, method, params, options, expected) => {
    expect(plan(method, params, options)).toEqual(expected);
  });

  it('records optionality and the fields an object spreads into', () => {
    const result = planParams('GET', { filter: object.optional(), q: text }, [], false, new Map());
    expect(result.params.map((p) => [p.name, p.optional, p.fields.map((f) => f.name)])).toEqual([
      ['filter', true, ['a', 'n']],
      ['q', false, []],
    ]);
  });
});
