import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import { z } from 'zod';
import { apis, serviceVersion, type ApiName } from '../api-names.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../errors.js';
import { defineRoute, type AnyRoute, errorResponse } from '../route.js';
import { buildApisJson, buildOpenApi, buildPostman } from '../../openapi/build.js';
import { docsPage } from '../../public/docs-page.js';

const apiNames = Object.keys(apis) as [ApiName, ...ApiName[]];
/** Health, discovery documents, metrics and the docs page. `routes` is the full list, for the documents. */
export function serviceRoutes(deps: AppDeps, routes: () => AnyRoute[]) {
  const base = deps.config.baseUrl;
  return [
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/api/health',
      summary: 'Service health and discovery',
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
              redis: z.enum(['ok', 'unavailable']),
            }),
          },
        },
      },
      async handler({ res }) {
        const redisOk = await deps.redis.ping().then(() => true, () => false);
        const seconds = Math.floor((Date.now() - deps.startedAt) / 1000);
        res.status(redisOk ? 200 : 503).json({
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
      noNotice: true,
      summary: 'OpenAPI 3.1 document of one API',
      key: 'none',
      params: z.object({ name: z.string() }),
      responses: {
        200: { description: 'OpenAPI document', content: { 'application/json': z.object({ openapi: z.string() }).loose() } },
        404: errorResponse('Unknown API name'),
      },
      handler({ params, res }) {
        if (!(params.name in apis)) {
          throw notFound(`unknown API name ${JSON.stringify(params.name)}; known: ${apiNames.join(', ')}`);
        }
        res.json(buildOpenApi(params.name as ApiName, routes(), base));
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/postman.json',
      noNotice: true,
      summary: 'Postman collection of every API',
      key: 'none',
      responses: { 200: { description: 'Postman v2.1 collection' } },
      handler({ res }) {
        res.json(buildPostman(routes(), base));
      },
    }),
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/apis.json',
      noNotice: true,
      summary: 'apis.json discovery document',
      key: 'none',
      responses: { 200: { description: 'apis.json' } },
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
    defineRoute({
      api: 'keys',
      method: 'get',
      path: '/',
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
