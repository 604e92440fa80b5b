import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { defineRoute, qBool, qUrl, targetFailures } from '../route.js';
import { checkPerf } from '../../perf/perf-check.js';
import { perfGrades, perfRubric } from '../../perf/perf-grade.js';

const ms = (what: string) => z.number().describe(`${what}, ms`);

export const perfReport = z.object({
  url: z.string().describe('URL as requested'),
  final_url: z.string().describe('URL of the measured response (after redirects when followed)'),
  status_code: z.number().int(),
  grade: z.enum(perfGrades).describe('A+ to F from the rubric in the description'),
  score: z.number().int().describe('0-100 points behind the grade'),
  grade_issues: z.array(z.string()).describe('Every point lost, with what to do and the points'),
  response_time_ms: ms('Total time including redirects, DNS, connect, TLS and the whole body'),
  response_size_bytes: z.number().int().describe('Body size after decoding (what the browser parses)'),
  transfer_size_bytes: z.number().int().describe('Body bytes on the wire (compressed when compression is on)'),
  compression: z.string().nullable().describe('Content-Encoding of the response, null when none'),
  content_type: z.string(),
  server: z.string().describe('Server header, empty when absent'),
  headers: z.record(z.string(), z.string()).describe('All response headers, lower-case names'),
  redirected: z.boolean().describe('True when at least one redirect was followed'),
  redirects: z.array(z.object({ url: z.string(), status_code: z.number().int(), location: z.string(), time_ms: z.number() })),
  timings: z.object({
    dns_ms: ms('DNS lookup of the final hop'),
    connect_ms: ms('TCP connect'),
    tls_ms: ms('TLS handshake (0 for http)'),
    ttfb_ms: ms('Request start to first response byte'),
    download_ms: ms('First to last body byte'),
    total_ms: ms('Final hop total'),
    redirect_ms: ms('Time spent in redirect hops'),
  }),
  http_version: z.string(),
  ip_address: z.string(),
  truncated: z.boolean().describe('True when the body exceeded ANALYSIS_MAX_BYTES and was cut'),
  timestamp: z.string(),
});

export function perfRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'perf',
      method: 'get',
      path: '/api/perf',
      summary: 'Time a page load and grade speed, compression, caching and size',
      description: `One GET on a fresh connection, timed by phase, with Accept-Encoding br, gzip, deflate. ${perfRubric}`,
      key: 'optional',
      limit: 'perf',
      query: z.object({
        url: qUrl().describe('Page to measure'),
        follow_redirects: qBool(true).describe('Follow redirects (true) or measure the first response (false)'),
      }),
      responses: {
        200: { description: 'The performance report', content: { 'application/json': perfReport } },
        ...targetFailures(),
      },
      async handler({ query, res }) {
        const report = await checkPerf(
          { url: query.url, followRedirects: query.follow_redirects, timeoutMs: deps.config.FETCH_TIMEOUT_MS, maxBytes: deps.config.ANALYSIS_MAX_BYTES },
          { policy: deps.http.policy, ca: deps.tlsCa },
        );
        res.json(report);
      },
    }),
  ];
}
