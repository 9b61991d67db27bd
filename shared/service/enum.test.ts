import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { UNKNOWN, enumOf, enumValues } from './enum';

const Role = enumOf(['USER', 'SUPER_ADMIN']);

describe('enumOf', () => {
  it.each([
    ['USER', 'USER'],
    ['SUPER_ADMIN', 'SUPER_ADMIN'],
    ['ROBOT', UNKNOWN],
    ['user', UNKNOWN],
    ['', UNKNOWN],
    [UNKNOWN, UNKNOWN],
  ])('decodes %j as %j', (wire, value) => {
    expect(Role.parse(wire)).toBe(value);
  });

  it.each([[1], [null], [undefined], [{}]])('rejects the non-string %j', (wire) => {
    expect(Role.safeParse(wire).success).toBe(false);
  });

  it.each(['USER', 'SUPER_ADMIN', UNKNOWN])('round-trips %s through JSON', (value) => {
    const wire = JSON.stringify({ role: Role.parse(value) });
    expect(wire).toBe(`{"role":"${value}"}`);
    expect(z.object({ role: Role }).parse(JSON.parse(wire))).toEqual({ role: value });
  });

  it('decodes unknown names inside objects and arrays', () => {
    const schema = z.object({ roles: z.array(Role) });
    expect(schema.parse({ roles: ['USER', 'GHOST'] })).toEqual({ roles: ['USER', UNKNOWN] });
  });

  it('lists its values with UNKNOWN last and types its output', () => {
    expect(enumValues(Role)).toEqual(['USER', 'SUPER_ADMIN', UNKNOWN]);
    expectTypeOf<z.output<typeof Role>>().toEqualTypeOf<'USER' | 'SUPER_ADMIN' | 'UNKNOWN'>();
    expectTypeOf<z.input<typeof Role>>().toEqualTypeOf<string>();
  });

  it('is an enum in JSON Schema, in both directions', () => {
    for (const io of ['input', 'output'] as const) {
      expect(z.toJSONSchema(Role, { target: 'openapi-3.0', io })).toMatchObject({
        type: 'string',
        enum: ['USER', 'SUPER_ADMIN', UNKNOWN],
      });
    }
  });

  it('refuses to declare UNKNOWN itself', () => {
    expect(() => enumOf(['A', 'UNKNOWN'])).toThrow(/added by the helper/);
  });
});
