import { z } from 'zod';

/** The value every enum decodes an unrecognised string to (spec 4.2, "Enums"). */
export const UNKNOWN = 'UNKNOWN';
export type Unknown = typeof UNKNOWN;

/**
 * A string enum as the spec defines it: on the wire a value is its constant's name, and any
 * string that names no constant decodes to `UNKNOWN` instead of failing, so an older reader
 * survives a newer writer's constants. A value that is not a string still fails.
 *
 * ```ts
 * const Role = enumOf(['USER', 'SUPER_ADMIN']);
 * Role.parse('USER');   // 'USER'
 * Role.parse('ROBOT');  // 'UNKNOWN'
 * type Role = z.output<typeof Role>; // 'USER' | 'SUPER_ADMIN' | 'UNKNOWN'
 * ```
 * In JSON Schema / OpenAPI it is `{ type: string, enum: [...names, 'UNKNOWN'] }`.
 */
export function enumOf<const Names extends readonly [string, ...string[]]>(names: Names) {
  if (names.includes(UNKNOWN)) throw new Error(`enumOf: "${UNKNOWN}" is added by the helper`);
  const known = new Set<string>(names);
  const values = [...names, UNKNOWN] as unknown as readonly [...Names, Unknown];
  return z.preprocess(
    (value: string) => (typeof value === 'string' && !known.has(value) ? UNKNOWN : value),
    z.enum(values),
  );
}

/** The constants of an enum built by {@link enumOf}, `UNKNOWN` last. */
export function enumValues(schema: ReturnType<typeof enumOf>): string[] {
  return [...schema.out.options];
}
