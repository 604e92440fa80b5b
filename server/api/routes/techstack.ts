import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { HttpError } from '../errors.js';
import { defineRoute, qBool, qUrl, errorResponse, targetFailures } from '../route.js';
import { targetHttpError } from '../target-error.js';
import { checkTechstack } from '../../techstack/techstack-check.js';

export const detectedTechnology = z.object({
  name: z.string(),
  version: z.string().nullable().describe('Version when a fingerprint captures one'),
  confidence: z.number().int().min(0).max(100).describe('Sum of the matched patterns\' confidence, at most 100'),
  categories: z.array(z.string()),
  website: z.string().nullable(),
  evidence: z
    .array(
      z.object({
        type: z.enum(['header', 'cookie', 'meta', 'script_src', 'script', 'html', 'url', 'js', 'dom', 'implied']),
        name: z.string().optional().describe('Header, cookie or meta name, JS global or CSS selector'),
        value: z.string().describe('The text that matched, or the implying technology'),
      }),
    )
    .describe('What matched (at most five items)'),
});

export const techstackReport = z.object({
  url: z.string(),
  final_url: z.string(),
  status_code: z.number().int(),
  technologies: z.record(z.string(), z.array(detectedTechnology)).describe('Category name → technologies; one technology may appear in several categories'),
  technology_count: z.number().int(),
  headers: z.record(z.string(), z.string()).describe('Response headers of the final page'),
  method: z.enum(['http', 'browser']),
  timestamp: z.string(),
});

export function techstackRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'techstack',
      method: 'get',
      path: '/api/techstack',
      summary: 'Detect the technologies a site uses',
      description:
        'Fetches the page once and matches 7,500+ Wappalyzer-format fingerprints (enthec/webappanalyzer data, GPL-3.0) against its response headers, cookies, meta tags, script URLs, inline scripts, HTML and URL; with render=true the page is loaded in Chromium and JavaScript globals (`js`) and DOM patterns (`dom`) are matched too. `implies`, `excludes`, `requires`, confidence and version captures are honoured. Technologies are grouped by category.',
      key: 'optional',
      limit: 'techstack',
      query: z.object({
        url: qUrl().describe('Page to analyse'),
        render: qBool(false).describe('Load the page in Chromium and also match JavaScript globals and DOM patterns (slower)'),
      }),
      responses: {
        200: { description: 'The tech-stack report', content: { 'application/json': techstackReport } },
        ...targetFailures({ 503: errorResponse('Fingerprint data not installed') }),
      },
      async handler({ query, res }) {
        res.json(await runTechstack(deps, query.url, query.render));
      },
    }),
  ];
}

/** The techstack check with its errors mapped (also used by the audit). */
export async function runTechstack(deps: AppDeps, url: string, render = false) {
  await deps.techDetector.ready().catch((err: Error) => {
    deps.log.error({ err: err.message }, 'fingerprint data unavailable');
    throw new HttpError(503, 'technology fingerprints are not installed on this server; the operator must run scripts/fetch-fingerprints.sh');
  });
  return checkTechstack(
    { url, render, maxBytes: deps.config.ANALYSIS_MAX_BYTES, timeoutMs: deps.config.FETCH_TIMEOUT_MS },
    { http: deps.http, detector: deps.techDetector, browser: deps.browser },
  ).catch((err: unknown) => {
    throw targetHttpError(err, new URL(url).host);
  });
}
