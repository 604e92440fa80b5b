import { z } from 'zod';

export type Json = Record<string, unknown>;

/**
 * The JSON Schema of a zod schema as the OpenAPI documents show it: what a caller sends
 * (`input`) or what the service answers (`output`).
 */
export function jsonSchema(s: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return tidy(rest) as Json;
}

/**
 * zod writes `int()` as bounded by ±(2^53 − 1): a representation limit, not a rule of the API,
 * and doc tools then show -9007199254740991 as the example value. Those bounds are dropped.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' || k === 'maximum') && typeof v === 'number' && Math.abs(v) >= Number.MAX_SAFE_INTEGER) continue;
    out[k] = tidy(v);
  }
  return out;
}

/**
 * A value that satisfies `schema`, for the documents' examples (and so the Postman requests):
 * the schema's own `example`, else its `default`, else for an object its required fields
 * built the same way; undefined when some required part has neither. Optional fields are
 * left out, so a request built from it sends only what it must.
 */
export function exampleOf(schema: Json): unknown {
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.type === 'object' && schema.properties) {
    const out: Json = {};
    for (const name of (schema.required as string[] | undefined) ?? []) {
      const v = exampleOf((schema.properties as Record<string, Json>)[name] ?? {});
      if (v === undefined) return undefined;
      out[name] = v;
    }
    return out;
  }
  if (schema.type === 'array' && schema.items) {
    const item = exampleOf(schema.items as Json);
    return item === undefined ? undefined : Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
  }
  return undefined;
}
