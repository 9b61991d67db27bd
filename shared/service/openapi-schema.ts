import { z } from 'zod';
import { isFileSchema } from './schema-kind';

export type JsonObject = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

/**
 * The shared schemas of an OpenAPI document (`components.schemas`). Zod emits the schemas it
 * names (`.meta({ id })`) or needs twice (recursion) under `definitions`, referenced as
 * `#/definitions/X`; they are moved here and their references rewritten. A named schema seen
 * again is reused; a different schema under a taken name gets a numeric suffix; unnamed ones
 * are numbered `Schema1`, `Schema2`….
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonObject> = {};
  // What each component looks like with unnamed references blanked, to recognise a repeat.
  readonly #fingerprints = new Map<string, string>();

  /** Moves a generated schema's `definitions` here; returns the schema pointing at them. */
  hoist(generated: JsonObject, refPrefix = '#/definitions/'): JsonObject {
    const { definitions, ...schema } = generated as JsonObject & {
      definitions?: Record<string, JsonObject>;
    };
    if (!definitions) return schema;
    const names = new Map<string, string>();
    const fresh: string[] = [];
    for (const [name, body] of Object.entries(definitions)) {
      const unnamed = name.startsWith('__schema');
      const fingerprint = JSON.stringify(
        rewriteRefs(body, refPrefix, (ref) => (ref.startsWith('__schema') ? '?' : ref)),
      );
      const final = unnamed ? this.#free('Schema', 1) : this.#place(name, fingerprint);
      names.set(name, final);
      if (!(final in this.schemas)) {
        fresh.push(name);
        this.#fingerprints.set(final, fingerprint);
        this.schemas[final] = {};
      }
    }
    const rename = (ref: string) => names.get(ref) ?? ref;
    for (const name of fresh) {
      this.schemas[names.get(name)!] = rewriteRefs(
        definitions[name],
        refPrefix,
        rename,
      ) as JsonObject;
    }
    return rewriteRefs(schema, refPrefix, rename) as JsonObject;
  }

  #place(name: string, fingerprint: string): string {
    if (!(name in this.schemas) || this.#fingerprints.get(name) === fingerprint) return name;
    for (let n = 2; ; n++) {
      const candidate = `${name}${n}`;
      if (!(candidate in this.schemas) || this.#fingerprints.get(candidate) === fingerprint) {
        return candidate;
      }
    }
  }

  #free(base: string, from: number): string {
    for (let n = from; ; n++) if (!(`${base}${n}` in this.schemas)) return `${base}${n}`;
  }
}

function rewriteRefs(value: unknown, prefix: string, rename: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, prefix, rename));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof item === 'string' && item.startsWith(prefix)
        ? COMPONENT_REF + rename(item.slice(prefix.length))
        : rewriteRefs(item, prefix, rename);
  }
  return out;
}

/**
 * An OpenAPI 3.0 Schema Object for a zod schema. Parameters are described as the caller sends
 * them (`io: 'input'`: defaults make a field optional), answers as the service produces them.
 * File parameters become `{ type: string, format: binary }`; any other schema JSON Schema
 * cannot express (transforms, dates…) is an error naming it, at mount time.
 */
export function openApiSchema(
  schema: z.core.$ZodType,
  io: 'input' | 'output',
  components: SchemaComponents,
): JsonObject {
  const generated = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io,
    unrepresentable: ({ zodSchema, message }) => {
      if (isFileSchema(zodSchema)) return { type: 'string', format: 'binary' };
      throw new Error(`cannot describe this schema in OpenAPI: ${message}`);
    },
  }) as JsonObject;
  return components.hoist(generated);
}
