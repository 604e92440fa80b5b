import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import { z } from 'zod';
import { apis, serviceVersion, type ApiName } from '../api-names.js';
import type { AppDeps } from '../deps.js';
import { NotFoundError } from '../../errors/index.js';
import { defineRoute, type AnyRoute, errorResponse } from '../route.js';
import { buildApisJson } from '../../openapi/apis-json.js';
import { buildOpenApi } from '../../openapi/build.js';
import { buildPostman } from '../../openapi/postman.js';
import { faviconSvg } from '../../public/favicon.js';
import { docsPage } from '../../public/docs-page.js';

const apiNames = Object.keys(apis) as [ApiName, ...ApiName[]];
/** Health, discovery documents, metrics and the docs page. `routes` is the full list, for the documents. */
export function serviceRoutes(deps: AppDeps, routes: () => AnyRoute[]) {
  const base = deps.config.baseUrl;
  // The routes are fixed once the app is built: each API's document is built once, when first asked for.
  const documents = new Map<ApiName, unknown>();
  const openApiOf = (name: ApiName) => {
    if (!documents.has(name)) documents.set(name, buildOpenApi(name, routes(), base));
    return documents.get(name);
  };
  return [
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/api/health',
      summary: 'Service health and discovery',
      description: 'Whether the service and its store (Redis) answer, its version and uptime, and where each API and document is. 503 with the same record when Redis is down.',
      key: 'none',
      responses: {
        200: {
          description: 'Health record',
          content: {
            'application/json': z.object({
              status: z.enum(['ok', 'degraded']),
              version: z.string(),
              uptime_seconds: z.number().int(),
              uptime_human: z.string(),
              apis: z.record(z.string(), z.string()),
              docs: z.string(),
              pricing: z.string(),
              openapi: z.string(),
              redis: z.enum(['ok', 'unavailable']).describe('`unavailable`: endpoints that need the store answer 503 with Retry-After until it is back; status is then `degraded`'),
            }),
          },
        },
      },
      async handler({ res }) {
        const redisOk = await deps.redis.ping().then(() => true, () => false);
        const seconds = Math.floor((Date.now() - deps.startedAt) / 1000);
        // 200 either way: a load balancer that drops every instance while Redis is away would
        // leave callers with its own error page instead of our 503s with Retry-After.
        res.json({
          status: redisOk ? 'ok' : 'degraded',
          version: serviceVersion,
          uptime_seconds: seconds,
          uptime_human: humanDuration(seconds),
          apis: Object.fromEntries(apiNames.map((n) => [n, apis[n].path])),
          docs: `${base}/`,
          pricing: `${base}/#pricing`,
          openapi: `${base}/openapi/{name}`,
          redis: redisOk ? 'ok' : 'unavailable',
        });
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/openapi/:name',
      summary: 'OpenAPI 3.1 document of one API',
      description: `Generated from the same schemas that check requests. Names: ${apiNames.join(', ')}.`,
      key: 'none',
      params: z.object({ name: z.string().max(100).describe(`One of ${apiNames.join(', ')}`).meta({ example: 'deadlinks' }) }),
      responses: {
        200: { description: 'OpenAPI document', content: { 'application/json': z.object({ openapi: z.string() }).loose() } },
        404: errorResponse('Unknown API name'),
      },
      handler({ params, res }) {
        // Own keys only: `__proto__` or `toString` are no API's name.
        if (!Object.hasOwn(apis, params.name)) {
          throw new NotFoundError(`unknown API name ${JSON.stringify(params.name)}; known: ${apiNames.join(', ')}`);
        }
        res.json(openApiOf(params.name as ApiName));
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/postman.json',
      summary: 'Postman collection of every API',
      description:
        'A Postman v2.1 collection converted from the OpenAPI documents, one folder per API. Collection variables: `baseUrl`, `apiKey` (sent as X-API-Key), `targetUrl` and `targetHost` (the site the examples analyse); ids that replies hand out (`job_id`, `id`) fill the variables of the requests after them. Runs as is with newman.',
      key: 'none',
      responses: { 200: { description: 'Postman v2.1 collection', content: { 'application/json': z.object({ info: z.object({ name: z.string() }).loose() }).loose() } } },
      async handler({ res }) {
        res.json(await buildPostman(routes(), base));
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/apis.json',
      summary: 'apis.json discovery document',
      description: 'Every API with its OpenAPI document, the Postman collection and the documentation page, in the APIs.json 0.19 format.',
      key: 'none',
      responses: { 200: { description: 'apis.json', content: { 'application/json': z.object({ name: z.string(), apis: z.array(z.object({ name: z.string() }).loose()) }).loose() } } },
      handler({ res }) {
        res.json(buildApisJson(base));
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics',
      key: 'none',
      hidden: true,
      responses: { 200: { description: 'Prometheus text format' } },
      async handler({ res }) {
        res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
      },
    }),
    ...['/favicon.svg', '/favicon.ico'].map((path) =>
      defineRoute({
        api: 'keys',
        method: 'get',
        path,
        ignoresQuery: true,
        summary: 'The service icon',
        key: 'none',
        hidden: true,
        responses: { 200: { description: 'SVG icon' } },
        handler({ res }) {
          res.set('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(faviconSvg);
        },
      }),
    ),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/',
      ignoresQuery: true,
      summary: 'Documentation page',
      key: 'none',
      hidden: true,
      responses: { 200: { description: 'HTML' } },
      handler({ res }) {
        res.type('html').send(docsPage(base, apiNames));
      },
    }),
  ];
}

/** Static assets of the docs page (Swagger UI, shipped in swagger-ui-dist, works offline). */
export function swaggerAssets() {
  const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return express.static(dir, { index: false, maxAge: '1d' });
}

function humanDuration(total: number): string {
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [d && `${d}d`, (d || h) && `${h}h`, (d || h || m) && `${m}m`, `${s}s`].filter(Boolean).join(' ');
}
