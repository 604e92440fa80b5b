import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { defineRoute, qBool, qUrl, errorResponse, targetFailures } from '../route.js';
import { runAudit } from '../../audit/audit-run.js';
import { perfRubric } from '../../perf/perf-grade.js';
import { seoRubric } from '../../seo/seo-audit.js';
import { tlsRubric } from '../../tls/tls-grade.js';
import { perfReport } from './perf.js';
import { seoReport } from './seo.js';
import { tlsReport } from './ssl.js';
import { techstackReport } from './techstack.js';

const failure = z
  .object({
    error: z.string().describe('Why this part could not run'),
    kind: z.enum(['blocked_target', 'dns', 'refused', 'reset', 'timeout', 'tls', 'network', 'unavailable']),
  })
  .describe('A part that failed, reported in place of its report');

export const auditReport = z.object({
  url: z.string(),
  summary: z.object({
    perf_grade: z.string().nullable(),
    ssl_grade: z.string().nullable(),
    seo_score: z.number().int().nullable().describe('Null unless seo=true and the SEO part succeeded'),
    technology_count: z.number().int().nullable(),
    parts_ok: z.array(z.string()),
    parts_failed: z.array(z.string()),
    top_issues: z.array(z.string()).describe('Up to three issues from each of TLS, performance and SEO'),
    duration_ms: z.number().int(),
  }),
  techstack: z.union([techstackReport, failure]).describe('Same shape as GET /api/techstack, or a failure'),
  ssl: z.union([tlsReport, failure]).describe('Same shape as GET /api/ssl (host of url, port 443 unless an https url names another), or a failure'),
  perf: z.union([perfReport, failure]).describe('Same shape as GET /api/perf, or a failure'),
  seo: z.union([seoReport, failure]).optional().describe('Present when seo=true: same shape as GET /api/seo?render=true, or a failure'),
  timestamp: z.string(),
});

export function auditRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'audit',
      method: 'get',
      path: '/api/audit',
      summary: 'Tech stack, TLS and performance in one call (optionally SEO)',
      description: [
        'Runs the tech-stack, TLS and performance checks at once; with seo=true also the browser-based SEO audit (about 5 s more).',
        'A part that fails (for example no TLS on an http:// site) is reported in place as {error, kind}; the call fails (502/504) only when the page itself cannot be fetched.',
        `Performance rubric: ${perfRubric}`,
        `TLS rubric: ${tlsRubric}`,
        `SEO rubric: ${seoRubric}`,
      ].join('\n\n'),
      key: 'optional',
      limit: 'audit',
      query: z.object({
        url: qUrl().describe('Site to audit'),
        seo: qBool(false).describe('Add the browser-based SEO audit'),
      }),
      responses: {
        200: { description: 'The audit bundle', content: { 'application/json': auditReport } },
        ...targetFailures({ 502: errorResponse('The page cannot be fetched at all'), 504: errorResponse('The page timed out') }),
      },
      async handler({ query, owner, res }) {
        const report = await runAudit(
          { url: query.url, seo: query.seo, timeoutMs: deps.config.FETCH_TIMEOUT_MS, maxBytes: deps.config.ANALYSIS_MAX_BYTES },
          { http: deps.http, detector: deps.techDetector, tlsCa: deps.tlsCa, browser: deps.browser.as(owner) },
        );
        res.json(report);
      },
    }),
  ];
}
