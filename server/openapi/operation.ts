import { apis } from '../api/api-names.js';
import type { AnyRoute } from '../api/route.js';
import { alwaysAllowedQuery } from '../api/validation.js';
import { exampleOf, jsonSchema, type Json } from './json-schema.js';
import { responsesOf } from './responses.js';

/** `/api/screenshot/status/:job_id` → `/api/screenshot/status/{job_id}`. */
export const openApiPath = (expressPath: string) => expressPath.replace(/:(\w+)/g, '{$1}');

/** `get /api/screenshot/status/:job_id` → `getApiScreenshotStatusJobId`. */
export const operationId = (r: AnyRoute) =>
  `${r.method}${r.path.replace(/[^a-zA-Z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

const keySchemes = [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }];

/** Security per key rule: none needs none, optional lists "no key" first, required needs one. */
function security(r: AnyRoute): Json[] {
  if (r.key === 'none') return [];
  return r.key === 'optional' ? [{}, ...keySchemes] : keySchemes;
}

/** Raw-body examples when the route gives none, by media type. */
const rawExamples: Record<string, string> = {
  'text/html': '<!doctype html><html><body style="font:48px sans-serif"><h1>Hello, world</h1></body></html>',
};

/** The OpenAPI operation of one route, generated from the same zod schemas that validate requests. */
export function operation(r: AnyRoute): Json {
  const op: Json = {
    operationId: operationId(r),
    tags: [apis[r.api].title],
    summary: r.summary,
    // Linters want a description; a route without one has said all in its summary.
    description: r.description ?? `${r.summary}.`,
    security: security(r),
    parameters: parameters(r),
    responses: responsesOf(r),
  };
  if (r.body) {
    const schema = jsonSchema(r.body, 'input');
    const example = exampleOf(schema);
    op.requestBody = {
      required: !r.body.safeParse(undefined).success,
      content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
    };
  } else if (r.rawBody) {
    const example = r.rawBody.example ?? rawExamples[r.rawBody.type];
    op.requestBody = {
      required: true,
      content: { [r.rawBody.type]: { schema: { type: 'string', maxLength: r.rawBody.maxBytes }, ...(example ? { example } : {}) } },
    };
  }
  return op;
}

function parameters(r: AnyRoute): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [['path', r.params], ['query', r.query]] as const) {
    if (!schema) continue;
    const js = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      // The key is a security scheme (apiKeyQuery), not a parameter of the operation.
      if (where === 'query' && (alwaysAllowedQuery as readonly string[]).includes(name)) continue;
      const { description, example, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
        ...(example === undefined ? {} : { example }),
      });
    }
  }
  return out;
}
