import { apis, serviceVersion, type ApiName } from '../api/api-names.js';
import type { AnyRoute } from '../api/route.js';
import type { Json } from './json-schema.js';
import { openApiPath, operation } from './operation.js';
import { responseHeaders } from './responses.js';

/** Routes that appear in the documents (not the docs page or metrics). */
export const documentedRoutes = (routes: AnyRoute[], name?: ApiName) => routes.filter((r) => !r.hidden && (!name || r.api === name));

const about = (base: string) =>
  [
    'Errors are `{ "error": "…" }` naming the parameter and the rule. Every operation lists each status it can answer.',
    'A query parameter the operation does not take answers 400; a method a path does not have answers 405 with `Allow`.',
    'Calls without a key work under strict per-IP limits and their JSON replies carry `_notice`; `RateLimit-*` headers say what is left, and 429 and 503 carry `Retry-After`.',
    `Create a key with \`POST ${base}/api/keys\`; send it as \`X-API-Key\`, \`Authorization: Bearer\` or \`?key=\`.`,
  ].join(' ');

/** The OpenAPI 3.1 document of one API, generated from the same zod schemas that validate requests. */
export function buildOpenApi(name: ApiName, routes: AnyRoute[], baseUrl: string): Json {
  const info = apis[name];
  const paths: Record<string, Json> = {};
  for (const r of documentedRoutes(routes, name)) {
    const path = openApiPath(r.path);
    paths[path] ??= {};
    paths[path][r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: `${info.title} API of SiteLens, the website analysis and rendering service (service version ${serviceVersion}). ${about(baseUrl)}`,
      contact: { name: 'SiteLens', url: `${baseUrl}/` },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl, description: 'This service' }],
    tags: [{ name: info.title, description: `${info.title}: every operation of this API` }],
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key in a header (recommended)' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'The API key as the `key` query parameter (every operation accepts it)' },
      },
      headers: responseHeaders,
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'string', description: 'What went wrong, naming the parameter and the rule, and what to do next' } },
        },
      },
    },
    paths,
  };
}
