import { z } from 'zod';
import { qBool, qInt, qUrl } from '../route.js';

/** Query of GET /api/deadlinks: every parameter documented for /openapi/deadlinks. */
export const deadlinksQuery = z
  .object({
    url: qUrl()
      .optional()
      .describe('Page to check (http or https; a bare host gets https://). Required unless `github` is given. Full mode crawls same-site pages from here.'),
    github: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/, 'must be owner/repo')
      .optional()
      .describe('GitHub mode: `owner/repo`. The README is fetched through the GitHub API, its links are checked with their line numbers; items carry `file` and `line`.'),
    ref: z
      .string()
      .trim()
      .regex(/^[\w][\w./-]{0,199}$/, 'must be a branch, tag or commit SHA')
      .optional()
      .describe('GitHub mode: the branch, tag or commit SHA whose README is checked (default: the default branch). A pull request\'s head SHA checks the README as the PR changes it.'),
    mode: z
      .enum(['full', 'quick'])
      .default('full')
      .describe('`full` (default): crawl up to `max_pages` same-site pages rendered in Chromium, so script-inserted links count. `quick`: only the given page, no browser, in well under a second.'),
    max_pages: qInt(1, 50).default(20).describe('Pages crawled in full mode, 1 to 50 (default 20).'),
    max_duration: qInt(10, 120)
      .default(60)
      .describe('Time budget in seconds, 10 to 120 (default 60). When exceeded, the report holds what was found so far and `timed_out: true`.'),
    format: z
      .enum(['json', 'csv', 'github', 'markdown'])
      .default('json')
      .describe('`json` (the report); `csv` (one row per broken link: url,status,kind,found_on,file,line, RFC 4180); `github` (workflow commands: `::error file=…,line=…::` per broken link, `::warning` per warning, a final `::notice` summary); `markdown` (a pull-request comment: headline, broken links grouped by page or file, redirects and bot-protected links in `<details>`, at most 65,536 characters).'),
    threshold: qInt(0, 100)
      .optional()
      .describe('Gate: the minimum `summary.health_score` (0 to 100) for `pass: true`. `pass` is present only when `threshold` or `max_broken` is given.'),
    max_broken: qInt(0, 1_000_000).optional().describe('Gate: the maximum `broken_count` for `pass: true`. Combines with `threshold` (both must hold).'),
    check_only: z.enum(['internal', 'external']).optional().describe('Report only internal (same-site) or only external links. Internal pages are still crawled to find external links.'),
    fragments: z
      .enum(['warn', 'error', 'ignore'])
      .default('warn')
      .describe('Same-site `#fragment` links are checked against the target page\'s ids and names (the rendered DOM in full mode). `warn` (default): listed in `warnings` as `missing_fragment`; `error`: counted as broken; `ignore`: not checked.'),
    render: qBool(true).describe('Full mode only: render pages in Chromium (default true). `false` crawls with plain HTTP (faster, misses script-inserted links).'),
    key: z.string().optional().describe('API key (alternatively the X-API-Key header or a bearer token).'),
  })
  .superRefine((q, ctx) => {
    if (!q.url && !q.github) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is required unless github is given' });
  });

const hop = z.object({
  url: z.string().describe('URL requested at this hop'),
  status: z.number().int().describe('Redirect status (301, 302, 303, 307, 308)'),
  location: z.string().describe('Absolute URL the hop redirects to'),
});

export const linkItem = z.object({
  url: z.string().describe('The link, normalised (fragment kept only for missing_fragment items)'),
  status: z.number().int().nullable().describe('Final HTTP status; null when no response arrived (see kind)'),
  kind: z
    .string()
    .describe('Stable outcome code. Broken: http_<status> (http_404, http_410, http_500 …), dns, refused, reset, timeout, tls, network, blocked_target, redirect_loop, too_many_redirects, invalid_url. Not broken: ok, redirect, bot_blocked (bot protection such as a Cloudflare challenge or status 999), rate_limited (429 after retries), missing_fragment (a warning unless fragments=error).'),
  type: z.enum(['internal', 'external']).describe('internal = same site as the target: host and port equal up to a leading www.'),
  resource: z.enum(['page', 'image', 'script', 'stylesheet', 'frame', 'media', 'other']).describe('What the link points at, from the tag it was found in'),
  is_image: z.boolean().describe('Found as an image (img, srcset, poster, icon, CSS url()); broken ones count in summary.broken_images'),
  found_on: z.array(z.string()).describe('Every page the link appears on (in GitHub mode: the file)'),
  redirect_chain: z.array(hop).describe('Each redirect hop with its status and location; empty when there was none'),
  final_url: z.string().describe('Where the request ended after redirects'),
  error: z.string().optional().describe('Innermost error message for network failures, or why a fragment is missing'),
  file: z.string().optional().describe('GitHub mode: the file the link is in'),
  line: z.number().int().optional().describe('GitHub mode: the first line the link is on (1-based)'),
  lines: z.array(z.number().int()).optional().describe('GitHub mode: every line the link is on'),
  browser_verified: z.boolean().optional().describe('A bot-blocked link that loaded in a real browser (full mode)'),
});

export const deadlinkReport = z.object({
  target: z.string().describe('The checked URL (GitHub mode: the repository URL)'),
  mode: z.enum(['full', 'quick', 'github']),
  pages_crawled: z.number().int().describe('HTML pages fetched or rendered and parsed for links'),
  total_links_checked: z.number().int().describe('Distinct links checked (each normalised URL once per run)'),
  broken_count: z.number().int(),
  broken_links: z.array(linkItem).describe('Broken links, sorted by URL'),
  redirects: z.array(linkItem).describe('Links that work after redirects, with their chains'),
  bot_blocked: z.array(linkItem).describe('Links answered by bot protection; not counted as broken'),
  warnings: z.array(linkItem).describe('missing_fragment and rate_limited links; not counted as broken'),
  summary: z.object({
    health_score: z.number().describe('100 × (1 − broken ÷ checked), one decimal; 100 when nothing was checked'),
    broken_images: z.number().int(),
    redirects_found: z.number().int().describe('Links that redirect and end fine'),
    bot_blocked: z.number().int(),
    warnings: z.number().int(),
    internal_links: z.number().int(),
    external_links: z.number().int(),
    skipped_links: z.number().int().describe('mailto:, tel:, javascript:, data: and other non-HTTP links, not checked'),
    cached_results: z.number().int().describe('Results reused from the shared short-lived cache'),
    rendered_pages: z.number().int().describe('Pages rendered in Chromium (full mode)'),
    duration_ms: z.number().int(),
  }),
  timed_out: z.literal(true).optional().describe('Present when max_duration was exceeded: the report is partial'),
  pass: z.boolean().optional().describe('Present when threshold or max_broken is given: true when every given gate holds'),
  gate: z.object({ threshold: z.number().int().optional(), max_broken: z.number().int().optional() }).optional(),
  repository: z.string().optional().describe('GitHub mode: owner/repo'),
  file: z.string().optional().describe('GitHub mode: the README path'),
  checked_at: z.string().describe('ISO 8601 time of the check'),
});

export const siteStatus = z.object({
  target: z.string(),
  health_score: z.number(),
  broken_count: z.number().int(),
  total_links_checked: z.number().int(),
  pages_crawled: z.number().int(),
  mode: z.enum(['full', 'quick', 'github']).describe('The check this status came from'),
  checked_at: z.string(),
  broken_links: z.array(z.object({ url: z.string(), kind: z.string(), status: z.number().int().nullable() })).describe('Up to 10'),
  cached: z.boolean().describe('true when served from the status cache'),
  badge_url: z.string(),
});

export const statusQuery = z.object({
  url: qUrl().describe('The site whose latest status is wanted'),
});

