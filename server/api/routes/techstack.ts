import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { DependencyDownError } from '../../errors/index.js';
import { defineRoute, qBool, qUrl, errorResponse, targetFailures } from '../route.js';
import type { RenderOwner } from '../../render/browser-pool.js';
import { checkTechstack } from '../../techstack/techstack-check.js';

export const detectedTechnology = z.object({
  name: z.string(),
  version: z.string().nullable().describe('The highest version seen on the page (semver order); null when no pattern names one'),
  versions: z
    .array(z.string())
    .describe('Every distinct version seen on the page, highest first: two builds of one library are both listed; empty when none'),
  confidence: z
    .number()
    .int()
    .min(0)
    .max(100)
    .describe("Sum of the matched patterns' confidence, at most 100; for an implied technology, the implier's confidence capped by the implication's"),
  categories: z.array(z.string()),
  website: z.string().nullable(),
  evidence: z
    .array(
      z.object({
        type: z.enum(['header', 'cookie', 'meta', 'script_src', 'script', 'html', 'url', 'js', 'dom', 'text', 'css', 'xhr', 'cert_issuer', 'implied']),
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
        'Fetches the page once and matches 7,500+ Wappalyzer-format fingerprints (enthec/webappanalyzer data, GPL-3.0) as the Wappalyzer engine applies them: every response header line (a repeated header is several lines), every cookie, meta tag, script URL and inline script, the HTML, the URL, and `dom` selectors on every matching element (`exists`, `text`, `attributes`). With render=true the page is loaded in Chromium: JavaScript globals (`js`), element `properties`, the bodies of the scripts the page loaded and the rendered DOM are matched too. Then `requires` / `requiresCategory` (a technology counts once one thing it requires is found), `excludes` (one side stays: the one that names the other, or for a mutual pair the stronger evidence: confidence, then a version, then rules matched), and `implies` from what remains (the implied technology carries the implier\'s confidence, capped by the implication\'s `\\;confidence:`). Technologies are grouped by category.',
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
      async handler({ query, owner, res }) {
        res.json(await runTechstack(deps, query.url, query.render, owner));
      },
    }),
  ];
}

/** The techstack check, refused with 503 while the fingerprint data is missing. */
export async function runTechstack(deps: AppDeps, url: string, render: boolean, owner: RenderOwner) {
  await deps.techDetector.ready().catch((err: Error) => {
    deps.log.error({ err: err.message }, 'fingerprint data unavailable');
    throw new DependencyDownError('fingerprints', 'technology fingerprints are not installed on this server; the operator must run scripts/fetch-fingerprints.sh', 3600);
  });
  return checkTechstack(
    { url, render, maxBytes: deps.config.ANALYSIS_MAX_BYTES, timeoutMs: deps.config.FETCH_TIMEOUT_MS },
    { http: deps.http, detector: deps.techDetector, browser: deps.browser.as(owner) },
  );
}
