import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enumOf } from './enum';
import {
  coerceText,
  fileParam,
  isFieldValue,
  isFileValue,
  isOptional,
  shapeOf,
  valueKindOf,
} from './schema-kind';

describe('valueKindOf', () => {
  it.each([
    [z.string(), 'string'],
    [z.string().optional(), 'string'],
    [z.number().int().default(3), 'number'],
    [z.boolean().nullable(), 'boolean'],
    [z.enum(['a', 'b']), 'enum'],
    [enumOf(['A']), 'enum'],
    [z.literal('x'), 'literal'],
    [z.array(z.string()), 'array'],
    [z.object({}), 'object'],
    [z.lazy(() => z.object({ a: z.string() })), 'object'],
    [z.record(z.string(), z.number()), 'record'],
    [z.union([z.string(), z.number()]), 'other'],
    [fileParam(), 'file'],
    [fileParam().optional(), 'file'],
  ])('%#: %s', (schema, kind) => {
    expect(valueKindOf(schema)).toBe(kind);
  });

  it('tells field values, files and optionality apart', () => {
    expect(isFieldValue(z.array(z.number()))).toBe(true);
    expect(isFieldValue(z.array(z.object({})))).toBe(false);
    expect(isFileValue(z.array(fileParam()))).toBe(true);
    expect(isFileValue(z.string())).toBe(false);
    expect(isOptional(z.string().optional())).toBe(true);
    expect(isOptional(z.string().default('a'))).toBe(true);
    expect(isOptional(z.string())).toBe(false);
    expect(Object.keys(shapeOf(z.object({ a: z.string() }).optional()) ?? {})).toEqual(['a']);
  });

  it('accepts only files for fileParam', () => {
    expect(fileParam().safeParse(new File(['x'], 'a.txt')).success).toBe(true);
    expect(fileParam().safeParse('a.txt').success).toBe(false);
  });
});

describe('coerceText', () => {
  it.each<[string, z.ZodType, string | string[] | undefined, unknown]>([
    ['number', z.number(), '5', 5],
    ['negative decimal', z.number(), '-2.5', -2.5],
    ['optional int', z.number().int().optional(), '10', 10],
    ['not a number', z.number(), 'ten', 'ten'],
    ['empty number', z.number(), '', undefined],
    ['infinity', z.number(), 'Infinity', 'Infinity'],
    ['true', z.boolean(), 'true', true],
    ['1', z.boolean(), '1', true],
    ['on (HTML checkbox)', z.boolean(), 'on', true],
    ['false', z.boolean(), 'False', false],
    ['0', z.boolean(), '0', false],
    ['not a boolean', z.boolean(), 'maybe', 'maybe'],
    ['string stays', z.string(), '5', '5'],
    ['empty string stays', z.string(), '', ''],
    ['bigint', z.bigint(), '12345678901234567890', 12345678901234567890n],
    ['numeric literal', z.literal(3), '3', 3],
    ['string enum', z.enum(['a', 'b']), 'b', 'b'],
    ['list of numbers', z.array(z.number()), ['1', '2'], [1, 2]],
    ['one value for a list', z.array(z.number()), '1', [1]],
    ['first value for a scalar', z.number(), ['1', '2'], 1],
    ['absent', z.number(), undefined, undefined],
  ])('%s', (_, schema, raw, expected) => {
    expect(coerceText(schema, raw)).toEqual(expected);
  });

  it('turns a date text into a Date', () => {
    expect(coerceText(z.date(), '2024-01-02T03:04:05Z')).toEqual(new Date('2024-01-02T03:04:05Z'));
    expect(coerceText(z.date(), 'soon')).toBe('soon');
  });
});
