import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors/app-error';
import { defineService, method } from './define';
import { validateParams } from './validation';

const service = defineService({
  name: 'v',
  prefix: '/modulev',
  methods: {
    PostThing: method({
      doc: '@validate(body.name, min=2) @validate(tag, omitempty, oneof=a b)',
      params: {
        body: z.object({
          name: z.string(),
          size: z.number().default(1),
          tags: z.array(z.string()).optional(),
        }),
        tag: z.string().optional(),
      },
    }),
  },
});
const route = service.routes[0]!;

function issues(raw: Record<string, unknown>, transport: 'http' | 'rpc') {
  try {
    validateParams(route, raw, transport);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    return (err as AppError).errors;
  }
}

describe('validateParams', () => {
  it('returns parsed values with defaults and leaves absent optionals out', () => {
    expect(validateParams(route, { body: { name: 'ab' } }, 'http')).toEqual({
      body: { name: 'ab', size: 1 },
    });
  });

  it.each<[string, Record<string, unknown>, unknown, unknown]>([
    [
      'a missing body',
      {},
      [{ field: 'body', message: 'is required' }],
      [{ field: 'body', message: 'is required' }],
    ],
    [
      'a missing and a wrong field',
      { body: { size: 'big' } },
      [
        { field: 'name', message: 'is required' },
        { field: 'size', message: expect.stringMatching(/expected number/) },
      ],
      [
        { field: 'body.name', message: 'is required' },
        { field: 'body.size', message: expect.stringMatching(/expected number/) },
      ],
    ],
    [
      'an array item',
      { body: { name: 'ab', tags: ['x', 1] } },
      [{ field: 'tags.1', message: expect.any(String) }],
      [{ field: 'body.tags.1', message: expect.any(String) }],
    ],
    [
      '@validate rules',
      { body: { name: 'a' }, tag: 'c' },
      [
        { field: 'name', message: 'must be at least 2 characters long' },
        { field: 'tag', message: 'must be one of: a, b' },
      ],
      [
        { field: 'body.name', message: 'must be at least 2 characters long' },
        { field: 'tag', message: 'must be one of: a, b' },
      ],
    ],
    ['an empty optional tag', { body: { name: 'ab' }, tag: '' }, [], []],
  ])('names %s as sent over HTTP and over RPC', (_, raw, http, rpc) => {
    expect(issues(raw, 'http')).toEqual(http);
    expect(issues(raw, 'rpc')).toEqual(rpc);
  });
});
