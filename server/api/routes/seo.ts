import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { defineRoute, qBool, qUrl, targetFailures } from '../route.js';
import { targetHttpError } from '../target-error.js';
import { auditSeo, seoRubric } from '../../seo/seo-audit.js';
import { seoWeights, type SeoCheckName } from '../../seo/seo-checks.js';

const seoCheck = z.object({
  pass: z.boolean(),
  value: z.unknown().describe('What was observed (text, count, or an object of details)'),
  message: z.string(),
  weight: z.number().int().describe('Points this check is worth'),
  recommendation: z.string().describe('What to do; empty when the check passes'),
});

const checkDescriptions: Record<SeoCheckName, string> = {
  http_status: 'HTTP status is 2xx',
  robots_directives: 'no noindex/nofollow/none in the robots meta tag or X-Robots-Tag',
  title: '<title> present, 10-60 characters',
  meta_description: 'meta description 50-160 characters',
  h1: 'exactly one h1',
  image_alt: 'every <img> has an alt attribute',
  canonical: 'canonical link present, absolute and on the same site',
  https: 'final URL uses HTTPS',
  viewport: 'viewport meta with width=device-width',
  open_graph: 'og:title, og:description, og:image and og:url present',
  heading_hierarchy: 'heading levels are not skipped',
  lang: '<html lang> present',
  page_weight: 'HTML at most 500 KB',
  twitter_card: 'twitter:card present',
  robots_txt: '/robots.txt answers 200',
  sitemap: 'sitemap (from robots.txt or /sitemap.xml) answers 200 with a urlset or sitemapindex',
  structured_data: 'at least one JSON-LD block and all of them parse',
  link_text: 'no link with non-descriptive text such as "click here" or "read more"',
};

export const seoReport = z.object({
  url: z.string(),
  final_url: z.string(),
  status_code: z.number().int(),
  score: z.number().int().min(0).max(100).describe('Sum of the weights of passing checks'),
  checks: z.object(
    Object.fromEntries(Object.keys(seoWeights).map((k) => [k, seoCheck.describe(`${checkDescriptions[k as SeoCheckName]} (weight ${seoWeights[k as SeoCheckName]})`)])) as Record<SeoCheckName, typeof seoCheck>,
  ),
  recommendations: z.array(z.string()).describe('One sentence per failed check, most important first'),
  rendered: z.boolean().describe('True when the DOM was audited after Chromium ran the page scripts'),
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
      async handler({ query, res }) {
        res.json(await runSeo(deps, query.url, query.render));
      },
    }),
  ];
}

/** The SEO audit with its errors mapped (also used by the audit bundle). */
export function runSeo(deps: AppDeps, url: string, render: boolean) {
  return auditSeo(
    { url, render, timeoutMs: deps.config.FETCH_TIMEOUT_MS, maxBytes: deps.config.ANALYSIS_MAX_BYTES },
    { http: deps.http, browser: deps.browser },
  ).catch((err: unknown) => {
    throw targetHttpError(err, new URL(url).host);
  });
}
