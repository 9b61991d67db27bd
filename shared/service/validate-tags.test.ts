import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidateTagError, compileTags, parseValidateRule } from './validate-tags';

function check(params: string[], schema: z.ZodType) {
  const rule = parseValidateRule(params);
  return compileTags(rule.target, rule.tags, schema);
}

describe('parseValidateRule', () => {
  it('reads the target and one tag per parameter', () => {
    expect(parseValidateRule(['top', 'gt=0', 'lte=60'])).toEqual({
      target: 'top',
      tags: [
        { name: 'gt', arg: '0' },
        { name: 'lte', arg: '60' },
      ],
    });
    expect(parseValidateRule(['body.username', 'required', 'oneof=a b']).tags).toEqual([
      { name: 'required', arg: undefined },
      { name: 'oneof', arg: 'a b' },
    ]);
  });

  it.each([
    [[], /parameter name first/],
    [['gt=0'], /parameter name first/],
    [['top'], /names no tag/],
    [['top', 'between=1'], /unknown tag "between"/],
    [['top', 'gt'], /needs a number/],
    [['top', 'gt=abc'], /needs a number/],
    [['top', 'max='], /needs a number/],
    [['top', 'required=yes'], /takes no value/],
    [['top', 'oneof='], /needs values/],
  ])('rejects %j', (params, message) => {
    expect(() => parseValidateRule(params)).toThrow(ValidateTagError);
    expect(() => parseValidateRule(params)).toThrow(message);
  });
});

describe('compileTags', () => {
  const number = z.number().optional();
  const string = z.string().optional();
  const list = z.array(z.string()).optional();

  it.each([
    // numbers: the value
    [['top', 'gt=0', 'lte=60'], number, 1, undefined],
    [['top', 'gt=0', 'lte=60'], number, 60, undefined],
    [['top', 'gt=0', 'lte=60'], number, 0, 'must be more than 0'],
    [['top', 'gt=0', 'lte=60'], number, 61, 'must be at most 60'],
    [['top', 'gte=1'], number, 0, 'must be at least 1'],
    [['top', 'lt=10'], number, 10, 'must be less than 10'],
    [['top', 'min=3'], number, 2, 'must be at least 3'],
    [['top', 'max=3'], number, 4, 'must be at most 3'],
    [['top', 'len=3'], number, 3, undefined],
    [['top', 'len=3'], number, 4, 'must be exactly 3'],
    [['top', 'oneof=10 20'], number, 20, undefined],
    [['top', 'oneof=10 20'], number, 15, 'must be one of: 10, 20'],
    // strings: the length in characters, code points not UTF-16 units
    [['name', 'min=3', 'max=50'], string, 'abc', undefined],
    [['name', 'min=3', 'max=50'], string, 'ab', 'must be at least 3 characters long'],
    [['name', 'max=2'], string, '😀😀', undefined],
    [['name', 'max=2'], string, 'abc', 'must be at most 2 characters long'],
    [['name', 'len=2'], string, 'abc', 'must be exactly 2 characters long'],
    [['name', 'gt=0'], string, '', 'must be more than 0 characters long'],
    [['name', 'lt=3'], string, 'abc', 'must be less than 3 characters long'],
    [['mail', 'email'], string, 'a@example.com', undefined],
    [['mail', 'email'], string, 'not-an-address', 'must be a valid e-mail address'],
    [['kind', 'oneof=red green'], string, 'green', undefined],
    [['kind', 'oneof=red green'], string, 'blue', 'must be one of: red, green'],
    // arrays: the item count
    [['tags', 'min=1'], list, ['a'], undefined],
    [['tags', 'min=1'], list, [], 'must contain at least 1 item'],
    [['tags', 'max=1'], list, ['a', 'b'], 'must contain at most 1 item'],
    // required and omitempty
    [['name', 'required'], string, undefined, 'is required'],
    [['name', 'required'], string, '', 'is required'],
    [['top', 'required'], number, 0, undefined],
    [['tags', 'required'], list, [], 'is required'],
    [['name', 'omitempty', 'min=3'], string, '', undefined],
    [['name', 'omitempty', 'min=3'], string, 'ab', 'must be at least 3 characters long'],
    [['name', 'min=3'], string, '', 'must be at least 3 characters long'],
    // an absent optional value only meets `required`
    [['name', 'min=3', 'email'], string, undefined, undefined],
  ])('%j on %o', (params, schema, value, expected) => {
    expect(check(params, schema)(value)).toBe(expected);
  });

  it.each([
    [['top', 'email'], z.number(), /"email" does not apply to a number/],
    [['flag', 'min=1'], z.boolean(), /"min" does not apply to a boolean/],
    [['body', 'max=1'], z.object({ a: z.string() }), /"max" does not apply to a object/],
    [['flag', 'oneof=true'], z.boolean(), /"oneof" does not apply to a boolean/],
  ])('rejects %j for the schema type', (params, schema, message) => {
    expect(() => check(params, schema)).toThrow(message);
  });
});
