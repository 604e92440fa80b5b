import { z } from 'zod';
import { BadInputError } from '../errors/index.js';

type Where = 'query' | 'body' | 'path';
type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** The query parameter every route takes besides its own: the API key (contract "Authentication"). */
export const alwaysAllowedQuery = ['key'] as const;

/**
 * Stands for "the schema gave no message of its own" (zod's per-parse error map has the
 * lowest precedence), so such issues get a message composed from the parameter's JSON Schema
 * and the ones a schema words itself (`must be owner/repo`) keep their words.
 */
const composed = '\u0000composed';

const inputSchemas = new WeakMap<z.ZodType, JsonSchema>();

/** The JSON Schema of what a caller sends (the same one the OpenAPI documents show). */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  let js = inputSchemas.get(schema);
  if (!js) {
    js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    inputSchemas.set(schema, js);
  }
  return js;
}

/**
 * Parses `input` with `schema`, or throws a 400 whose message names each failing parameter,
 * what it must be and what was given: `width must be an integer between 320 and 1920, got "abc"`.
 */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, where: Where): T {
  const given = input ?? {};
  const result = schema.safeParse(given, { error: () => composed });
  if (result.success) return result.data;
  const js = inputJsonSchema(schema);
  throw new BadInputError(result.error.issues.map((i) => describeIssue(i, js, given, where)).join('; '));
}

/**
 * A query string's own checks before its schema runs: every name must be one the route
 * takes (or `key`), and each given once. `schema` undefined means the route takes none.
 */
export function checkQueryNames(schema: z.ZodType | undefined, query: Record<string, unknown>): void {
  const known = Object.keys(schema ? (inputJsonSchema(schema).properties ?? {}) : {});
  const allowed = new Set<string>([...known, ...alwaysAllowedQuery]);
  const unknown = Object.keys(query).filter((n) => !allowed.has(n));
  const problems: string[] = [];
  if (unknown.length) {
    const takes = known.filter((n) => !(alwaysAllowedQuery as readonly string[]).includes(n));
    problems.push(
      `unknown query parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (${
        takes.length ? `this endpoint takes ${takes.join(', ')} and key` : 'this endpoint takes only key'
      })`,
    );
  }
  const properties = schema ? (inputJsonSchema(schema).properties ?? {}) : {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value) && allowed.has(name) && !takesList(properties[name])) problems.push(`${name} is given ${value.length} times; give it once`);
  }
  if (problems.length) throw new BadInputError(problems.join('; '));
}

/** A parameter meant to be repeated (`exclude=a&exclude=b`): its schema allows an array. */
const takesList = (s: JsonSchema | undefined): boolean => s?.type === 'array' || (s?.anyOf ?? s?.oneOf ?? []).some((x) => x.type === 'array');

function describeIssue(issue: z.core.$ZodIssue, root: JsonSchema, input: unknown, where: Where): string {
  const name = issue.path.length ? pathName(issue.path) : where === 'body' ? 'request body' : where;
  // Secrets (target_headers) are never echoed back, not even in a 400.
  const secret = issue.path[0] === 'target_headers';
  const value = valueAt(input, issue.path);
  if (issue.code === 'unrecognized_keys') {
    return `${name} has unknown field(s): ${issue.keys.join(', ')}`;
  }
  if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) return `${name} is required`;
  const own = issue.message !== composed;
  const rule = !own
    ? `must be ${expectation(schemaAt(root, issue.path))}`
    : issue.message.startsWith(`${name} `) ? issue.message.slice(name.length + 1) : issue.message;
  // A schema's own words about an object or array (`is Chart.js v2 syntax`) need no "got an object".
  const container = value !== null && typeof value === 'object';
  return value === undefined || secret || (own && container) ? `${name} ${rule}` : `${name} ${rule}, got ${shown(value)}`;
}

/** `urls[0]`, `data.datasets`: how a caller writes the place in a query or JSON body. */
function pathName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)), '');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

function schemaAt(root: JsonSchema, path: readonly PropertyKey[]): JsonSchema {
  let s: JsonSchema | undefined = root;
  for (const seg of path) {
    s = unwrap(s);
    s = typeof seg === 'number' ? s?.items : s?.properties?.[String(seg)];
    if (!s) return {};
  }
  return unwrap(s) ?? {};
}

/** An optional or nullable schema's object/array branch, where the path continues. */
function unwrap(s: JsonSchema | undefined): JsonSchema | undefined {
  const options = s?.anyOf ?? s?.oneOf;
  return options?.find((o) => o.properties || o.items) ?? s;
}

const booleanWords = ['0', '1', 'true', 'false', 'yes', 'no'];

/** What a value must be, in words, from its JSON Schema. */
export function expectation(s: JsonSchema): string {
  const options = s.anyOf ?? s.oneOf;
  if (options) return options.map(expectation).join(' or ');
  if (s.enum) {
    if (s.enum.length === booleanWords.length && s.enum.every((e) => booleanWords.includes(String(e)))) return 'true or false (1/0 and yes/no also work)';
    return `one of ${s.enum.map(String).join(', ')}`;
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  const type = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null')[0] : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return `${type === 'integer' ? 'an integer' : 'a number'}${range(s.minimum ?? s.exclusiveMinimum, s.maximum ?? s.exclusiveMaximum)}`;
    case 'string':
      if (s.format === 'uri') return 'an absolute http or https URL';
      if (s.format === 'email') return 'an email address';
      if (s.format === 'date-time') return 'an ISO 8601 date and time';
      if (s.pattern) return `a string matching ${s.pattern}`;
      if (s.minLength === 1 && s.maxLength === undefined) return 'a non-empty string';
      return `a string${lengths(s.minLength, s.maxLength, 'characters')}`;
    case 'array':
      return `an array${lengths(s.minItems, s.maxItems, 'items')}`;
    case 'object':
      return 'an object';
    case 'boolean':
      return 'true or false';
    default:
      return 'a valid value';
  }
}

/** zod's ±2^53−1 bounds of `int()` are representation limits, not the API's rules. */
const unbounded = (n: number | undefined) => n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER;

function range(min: number | undefined, max: number | undefined): string {
  if (!unbounded(min) && !unbounded(max)) return ` between ${min} and ${max}`;
  if (!unbounded(min)) return ` of at least ${min}`;
  if (!unbounded(max)) return ` of at most ${max}`;
  return '';
}

function lengths(min: number | undefined, max: number | undefined, unit: string): string {
  if (min && max !== undefined) return ` of ${min} to ${max} ${unit}`;
  if (min) return ` of at least ${min} ${unit}`;
  if (max !== undefined) return ` of at most ${max} ${unit}`;
  return '';
}

/** The given value, short: long strings and containers by their size. */
function shown(v: unknown): string {
  if (typeof v === 'string') return v.length > 60 ? `${v.length} characters` : JSON.stringify(v);
  if (Array.isArray(v)) return `${v.length} item${v.length === 1 ? '' : 's'}`;
  if (v !== null && typeof v === 'object') return 'an object';
  return JSON.stringify(v) ?? String(v);
}
