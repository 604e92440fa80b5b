import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { defineRoute, qBool, qUrl, targetFailures } from '../route.js';
import type { RenderOwner } from '../../render/browser-pool.js';
import { auditSeo, seoRubric } from '../../seo/seo-audit.js';
import { seoCheckSpecs, type SeoCheckName } from '../../seo/seo-checks.js';

const elementRef = z.object({
  selector: z.string().describe('Short CSS path (up to four levels, tag#id or tag.class), as Lighthouse shows it'),
  snippet: z.string().describe('The opening tag, long attribute values cut at 75 characters'),
});

const seoItem = z.object({
  reason: z.string().describe("Why it fails, in Lighthouse's words where Lighthouse has them"),
  element: elementRef.optional().describe('The element that fails'),
  robots_txt: z.object({ line: z.number().int().describe('1-based line number'), content: z.string().describe('The line as served') }).optional()
    .describe('The robots.txt line that fails or blocks the page'),
  header: z.string().optional().describe('The response header, as "name: value"'),
  url: z.string().optional().describe('The URL involved: link destination, canonical, robots.txt, image src'),
  text: z.string().optional().describe('Link text or language tag'),
});

const seoCheck = z.object({
  pass: z.boolean(),
  value: z.unknown().describe('What was observed (text, count, or an object of details)'),
  message: z.string(),
  weight: z.number().int().describe('Points this check is worth'),
  recommendation: z.string().describe('What to do; empty when the check passes'),
  source: z.enum(['lighthouse', 'sitelens']).describe('"lighthouse": the rules of the Lighthouse SEO audit in lighthouse_audit; "sitelens": our own check'),
  lighthouse_audit: z.string().nullable().describe('Id of the Lighthouse audit reproduced (is-crawlable, canonical, …); null for our own checks'),
  applicable: z.boolean().describe('False when there was nothing to check (Lighthouse\'s "not applicable"); pass is then true'),
  items: z.array(seoItem).describe('What fails: one entry per element, robots.txt line or header; empty when the check passes'),
  warnings: z.array(z.string()).describe('Notes that do not change the verdict (e.g. crawlers blocked while others may index)'),
});

export const seoReport = z.object({
  url: z.string(),
  final_url: z.string(),
  status_code: z.number().int(),
  score: z.number().int().min(0).max(100).describe('Sum of the weights of passing checks'),
  checks: z.object(
    Object.fromEntries(
      Object.entries(seoCheckSpecs).map(([k, spec]) => [
        k,
        seoCheck.describe(`${spec.rule} (weight ${spec.weight}; ${spec.lighthouse_audit ? `Lighthouse audit ${spec.lighthouse_audit}` : 'SiteLens check'})`),
      ]),
    ) as Record<SeoCheckName, typeof seoCheck>,
  ),
  recommendations: z.array(z.string()).describe('One sentence per failed check, most important first'),
  rendered: z.boolean().describe('True when the DOM was audited after Chromium ran the page scripts'),
  lighthouse_version: z.string().describe('The Lighthouse release whose SEO audit rules the checks with source "lighthouse" apply'),
  warnings: z.array(z.string()).describe('What could not be read, e.g. a Link header that does not parse'),
  timestamp: z.string(),
});

export function seoRoutes(deps: AppDeps) {
  return [
    defineRoute({
      api: 'seo',
      method: 'get',
      path: '/api/seo',
      summary: 'Audit a page for search-engine basics',
      description: `Fetches the page (or with render=true loads it in Chromium and audits the DOM after its scripts ran), reads robots.txt and the sitemap, and runs the checks. ${seoRubric}`,
      key: 'optional',
      limit: 'seo',
      query: z.object({
        url: qUrl().describe('Page to audit'),
        render: qBool(false).describe('Audit the DOM after JavaScript ran (single-page apps); slower'),
      }),
      responses: {
        200: { description: 'The SEO report', content: { 'application/json': seoReport } },
        ...targetFailures(),
      },
      async handler({ query, owner, res }) {
        res.json(await runSeo(deps, query.url, query.render, owner));
      },
    }),
  ];
}

/** The SEO audit with the service's limits; renders count against `owner`. */
export function runSeo(deps: AppDeps, url: string, render: boolean, owner: RenderOwner) {
  return auditSeo({ url, render, timeoutMs: deps.config.FETCH_TIMEOUT_MS, maxBytes: deps.config.ANALYSIS_MAX_BYTES }, { http: deps.http, browser: deps.browser.as(owner) });
}
