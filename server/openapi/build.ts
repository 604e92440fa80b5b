import { z } from 'zod';
import { apis, serviceVersion, type ApiName } from '../api/api-names.js';
import type { AnyRoute } from '../api/route.js';

type Json = Record<string, unknown>;

const toSchema = (s: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return rest;
};

/** The OpenAPI 3.1 document of one API, generated from the same zod schemas that validate requests. */
export function buildOpenApi(name: ApiName, routes: AnyRoute[], baseUrl: string): Json {
  const info = apis[name];
  const paths: Record<string, Json> = {};
  for (const r of routes.filter((x) => x.api === name && !x.hidden)) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: `${info.title} API of the website analysis and rendering service (service version ${serviceVersion}).`,
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
      },
    },
    paths,
  };
}

function operation(r: AnyRoute): Json {
  const parameters: Json[] = [];
  for (const [where, schema] of [['query', r.query], ['path', r.params]] as const) {
    if (!schema) continue;
    const js = toSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [pname, pschema] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = pschema as Json;
      parameters.push({
        name: pname,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(pname),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  const op: Json = {
    operationId: `${r.method}${r.path.replace(/[^a-zA-Z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    parameters,
    responses: Object.fromEntries(
      Object.entries(r.responses).map(([status, doc]) => [
        status,
        {
          description: doc.description,
          ...(doc.content
            ? {
                content: Object.fromEntries(
                  Object.entries(doc.content).map(([type, s]) => [
                    type,
                    { schema: s === 'binary' ? { type: 'string', contentMediaType: type } : s === 'text' ? { type: 'string' } : toSchema(s, 'output') },
                  ]),
                ),
              }
            : {}),
        },
      ]),
    ),
  };
  if (r.body) {
    op.requestBody = { required: !r.body.safeParse(undefined).success, content: { 'application/json': { schema: toSchema(r.body, 'input') } } };
  } else if (r.rawBody) {
    op.requestBody = { required: true, content: { [r.rawBody.type]: { schema: { type: 'string', maxLength: r.rawBody.maxBytes } } } };
  }
  if (r.key === 'required' || r.key === 'required-any-status') {
    op.security = [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }];
  } else if (r.key === 'optional') {
    op.security = [{}, { apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }];
  }
  return op;
}

/** A Postman v2.1 collection with one request per documented operation. */
export function buildPostman(routes: AnyRoute[], baseUrl: string): Json {
  const folders = (Object.keys(apis) as ApiName[]).map((name) => ({
    name: apis[name].title,
    item: routes
      .filter((r) => r.api === name && !r.hidden)
      .map((r) => {
        const js = r.query ? (toSchema(r.query, 'input') as { properties?: Record<string, Json>; required?: string[] }) : {};
        const query = Object.entries(js.properties ?? {}).map(([key, s]) => ({
          key,
          value: String((s as Json).example ?? (s as Json).default ?? ''),
          disabled: !(js.required ?? []).includes(key),
        }));
        return {
          name: r.summary,
          request: {
            method: r.method.toUpperCase(),
            header: [{ key: 'X-API-Key', value: '{{apiKey}}', disabled: r.key === 'none' || r.key === 'optional' }],
            url: { raw: `{{baseUrl}}${r.path}`, host: ['{{baseUrl}}'], path: r.path.split('/').filter(Boolean), query },
          },
        };
      }),
  }));
  return {
    info: { name: 'Website analysis and rendering API', version: serviceVersion, schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'baseUrl', value: baseUrl }, { key: 'apiKey', value: '' }],
    item: folders,
  };
}

/** apis.json (apisjson.org) describing every API with its OpenAPI document. */
export function buildApisJson(baseUrl: string): Json {
  return {
    name: 'Website analysis and rendering service',
    description: 'Broken links, SEO, screenshots, HTML to image, charts, performance, tech stack, TLS and audits over HTTP.',
    url: `${baseUrl}/apis.json`,
    specificationVersion: '0.19',
    version: serviceVersion,
    apis: (Object.keys(apis) as ApiName[]).map((name) => ({
      name: apis[name].title,
      baseURL: `${baseUrl}${apis[name].path}`,
      version: apis[name].version,
      properties: [
        { type: 'OpenAPI', url: `${baseUrl}/openapi/${name}` },
        { type: 'Postman', url: `${baseUrl}/postman.json` },
      ],
    })),
  };
}
